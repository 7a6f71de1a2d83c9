package org.example.tides;

import java.util.ArrayList;
import java.util.List;

/**
 * Predicts the height of the sea from harmonic constituents.
 */
public final class TidePredictor {

    /** One harmonic term: amplitude (m), speed (degrees per hour), phase (degrees). */
    public record Constituent(String name, double amplitude, double speed, double phase) {
        /** The term's contribution at the given hour. */
        public double height(double hours) {
            double angle = Math.toRadians(speed * hours - phase);
            return amplitude * Math.cos(angle);
        }
    }

    /** A high or low water. */
    public enum Kind { HIGH, LOW }

    private final double mean;
    private final List<Constituent> terms;

    public TidePredictor(double mean, List<Constituent> terms) {
        this.mean = mean;
        this.terms = List.copyOf(terms);
    }

    /** Height of the sea at the given hour, in metres. */
    public double height(double hours) {
        double total = mean;
        for (Constituent term : terms) {
            total += term.height(hours);
        }
        return total;
    }

    /**
     * Every turning point in [start, stop), scanned in steps.
     *
     * @param step hours between samples
     */
    @SuppressWarnings("unused")
    public List<double[]> extremes(double start, double stop, double step) {
        List<double[]> found = new ArrayList<>();
        double before = height(start - step);
        double now = height(start);
        for (double t = start; t < stop; t += step) {
            double after = height(t + step);
            if (now > before && now >= after) {
                found.add(new double[] {t, now, 1});
            } else if (now < before && now <= after) {
                found.add(new double[] {t, now, 0});
            }
            before = now;
            now = after;
        }
        return found;
    }

    // A formatted table, one line per extreme.
    static String format(List<double[]> extremes) {
        StringBuilder out = new StringBuilder();
        for (double[] e : extremes) {
            Kind kind = e[2] > 0 ? Kind.HIGH : Kind.LOW;
            out.append(String.format("%-4s %6.2f %+.2f m%n", kind, e[0], e[1]));
        }
        return out.toString();
    }
}

# Tide prediction from harmonic constituents.
module Tides
  # One harmonic term: amplitude (m), speed (degrees per hour), phase (degrees).
  Constituent = Struct.new(:name, :amplitude, :speed, :phase) do
    def height(hours)
      amplitude * Math.cos((speed * hours - phase) * Math::PI / 180)
    end
  end

  class Predictor
    attr_reader :mean, :terms

    # A predictor from a mean level and its constituents.
    def initialize(mean, terms)
      @mean = mean
      @terms = terms
    end

    # Height of the sea at the given hour.
    def height(hours)
      terms.sum(mean) { |term| term.height(hours) }
    end

    # Every turning point in [start, stop), scanned in steps.
    def extremes(start, stop, step = 0.1)
      found = []
      before = height(start - step)
      now = height(start)
      t = start
      while t < stop
        after = height(t + step)
        found << [t, now, :high] if now > before && now >= after
        found << [t, now, :low] if now < before && now <= after
        before, now = now, after
        t += step
      end
      found
    end

    class << self
      def from_table(rows, mean = 0.0)
        new(mean, rows.map { |row| Constituent.new(*row) })
      end
    end
  end
end

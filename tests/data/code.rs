//! Tide prediction from harmonic constituents.

use std::fmt;

/// One harmonic term: amplitude (m), speed (degrees per hour), phase (degrees).
#[derive(Debug, Clone, PartialEq)]
pub struct Constituent {
    pub name: &'static str,
    pub amplitude: f64,
    pub speed: f64,
    pub phase: f64,
}

impl Constituent {
    /// The term's contribution at `hours`.
    pub fn height(&self, hours: f64) -> f64 {
        let angle = (self.speed * hours - self.phase).to_radians();
        self.amplitude * angle.cos()
    }
}

/// A high or low water.
#[derive(Debug, Clone, Copy)]
pub enum Extreme {
    High { hour: f64, height: f64 },
    Low { hour: f64, height: f64 },
}

pub trait Predict {
    /// Height of the sea at `hours`.
    fn height(&self, hours: f64) -> f64;

    /// Every turning point in `[start, stop)`, scanned in steps of `step` hours.
    fn extremes(&self, start: f64, stop: f64, step: f64) -> Vec<Extreme> {
        let mut found = Vec::new();
        let (mut before, mut now) = (self.height(start - step), self.height(start));
        let mut t = start;
        while t < stop {
            let after = self.height(t + step);
            if now > before && now >= after {
                found.push(Extreme::High { hour: t, height: now });
            } else if now < before && now <= after {
                found.push(Extreme::Low { hour: t, height: now });
            }
            before = now;
            now = after;
            t += step;
        }
        found
    }
}

/// Constituents summed over a mean level.
pub struct Predictor {
    pub mean: f64,
    pub terms: Vec<Constituent>,
}

impl Predict for Predictor {
    fn height(&self, hours: f64) -> f64 {
        self.mean + self.terms.iter().map(|term| term.height(hours)).sum::<f64>()
    }
}

impl fmt::Display for Extreme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Extreme::High { hour, height } => write!(f, "HIGH {hour:>6.2} {height:+.2} m"),
            Extreme::Low { hour, height } => write!(f, "LOW  {hour:>6.2} {height:+.2} m"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_term_peaks_at_its_phase() {
        let term = Constituent { name: "M2", amplitude: 1.0, speed: 28.984, phase: 0.0 };
        let p = Predictor { mean: 0.0, terms: vec![term] };
        assert!((p.height(0.0) - 1.0).abs() < 1e-9);
    }
}

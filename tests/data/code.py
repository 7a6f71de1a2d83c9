"""Tide tables: predict the height of the sea from harmonic constituents.

Written for spansplit's tests as a sample of ordinary Python: module docstring,
imports, constants, decorated functions, a class with methods and a nested helper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

DEGREES = math.pi / 180.0
"""Radians per degree."""

# Speeds of the main constituents, in degrees per hour.
SPEEDS = {
    "M2": 28.9841042,  # principal lunar semidiurnal
    "S2": 30.0000000,  # principal solar semidiurnal
    "N2": 28.4397295,  # larger lunar elliptic
    "K1": 15.0410686,  # lunar diurnal
    "O1": 13.9430356,  # lunar diurnal
}


@dataclass(frozen=True)
class Constituent:
    """One harmonic constituent: a cosine with an amplitude and a phase lag."""

    name: str
    amplitude: float  # metres
    phase: float  # degrees

    @property
    def speed(self) -> float:
        """Angular speed in degrees per hour."""
        return SPEEDS[self.name]

    def height(self, hours: float) -> float:
        """Contribution of this constituent ``hours`` after the epoch."""
        angle = (self.speed * hours - self.phase) * DEGREES
        return self.amplitude * math.cos(angle)


class TidePredictor:
    """Sum of constituents plus the mean sea level at a station."""

    def __init__(self, mean_level: float, constituents: list[Constituent]) -> None:
        self.mean_level = mean_level
        self.constituents = constituents

    def height(self, hours: float) -> float:
        """Predicted height ``hours`` after the epoch."""
        return self.mean_level + sum(c.height(hours) for c in self.constituents)

    def extremes(self, start: float, stop: float, step: float = 0.1) -> list[tuple[float, float]]:
        """High and low waters between ``start`` and ``stop`` hours, found by sampling."""

        def slope(t: float) -> float:
            return self.height(t + step / 2) - self.height(t - step / 2)

        found = []
        t = start
        while t < stop:
            if slope(t) > 0 >= slope(t + step) or slope(t) < 0 <= slope(t + step):
                found.append((t + step / 2, self.height(t + step / 2)))
            t += step
        return found

    @classmethod
    def from_table(cls, rows: list[tuple[str, float, float]], mean_level: float = 0.0) -> TidePredictor:
        """A predictor from ``(name, amplitude, phase)`` rows."""
        return cls(mean_level, [Constituent(*row) for row in rows])


@lru_cache(maxsize=None)
def spring_neap_period() -> float:
    """Days between two spring tides: the beat of M2 and S2."""
    return 360.0 / (SPEEDS["S2"] - SPEEDS["M2"]) / 24.0


def format_table(predictor: TidePredictor, days: int = 1) -> str:
    """A plain-text table of hourly heights for ``days`` days."""
    lines = ["hour  height"]
    for hour in range(24 * days):
        lines.append(f"{hour:4d}  {predictor.height(hour):6.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    station = TidePredictor.from_table(
        [("M2", 1.20, 110.0), ("S2", 0.40, 140.0), ("K1", 0.10, 200.0)], mean_level=2.5
    )
    print(format_table(station))
    print(f"spring-neap period: {spring_neap_period():.2f} days")

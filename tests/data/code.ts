/** Tide prediction from harmonic constituents. */

export interface Constituent {
  name: string;
  amplitude: number; // metres
  speed: number; // degrees per hour
  phase: number; // degrees
}

export type Extreme = { hour: number; height: number; high: boolean };

export enum Units {
  Metres = "m",
  Feet = "ft",
}

const RADIANS = Math.PI / 180;

/** The contribution of one term at the given hour. */
export function termHeight(term: Constituent, hours: number): number {
  return term.amplitude * Math.cos((term.speed * hours - term.phase) * RADIANS);
}

export class TidePredictor {
  constructor(
    private readonly mean: number,
    private readonly terms: Constituent[],
  ) {}

  /** Height of the sea at the given hour. */
  height(hours: number): number {
    return this.terms.reduce((total, term) => total + termHeight(term, hours), this.mean);
  }

  /** Every turning point in [start, stop), scanned in steps. */
  extremes(start: number, stop: number, step = 0.1): Extreme[] {
    const found: Extreme[] = [];
    let before = this.height(start - step);
    let now = this.height(start);
    for (let t = start; t < stop; t += step) {
      const after = this.height(t + step);
      if (now > before && now >= after) {
        found.push({ hour: t, height: now, high: true });
      } else if (now < before && now <= after) {
        found.push({ hour: t, height: now, high: false });
      }
      [before, now] = [now, after];
    }
    return found;
  }

  static fromTable(rows: Array<[string, number, number, number]>, mean = 0): TidePredictor {
    return new TidePredictor(
      mean,
      rows.map(([name, amplitude, speed, phase]) => ({ name, amplitude, speed, phase })),
    );
  }
}

export const format = (extremes: Extreme[], units: Units = Units.Metres): string =>
  extremes
    .map((e) => `${e.high ? "HIGH" : "LOW "} ${e.hour.toFixed(2)} ${e.height.toFixed(2)} ${units}`)
    .join("\n");

namespace Stations {
  export const brest: Constituent[] = [{ name: "M2", amplitude: 2.05, speed: 28.984, phase: 141 }];
}

// Package tides predicts sea levels from harmonic constituents.
package tides

import (
	"fmt"
	"math"
	"sort"
)

// Constituent is one harmonic term of the tide: amplitude in metres, speed in
// degrees per hour and phase in degrees.
type Constituent struct {
	Name      string
	Amplitude float64
	Speed     float64
	Phase     float64
}

// Height is the constituent's contribution at the given hour.
func (c Constituent) Height(hours float64) float64 {
	angle := (c.Speed*hours - c.Phase) * math.Pi / 180
	return c.Amplitude * math.Cos(angle)
}

type (
	// Extreme is a high or low water.
	Extreme struct {
		Hour   float64
		Height float64
		High   bool
	}
	// Table is a list of constituents for one station.
	Table []Constituent
)

// Predictor sums constituents over a mean level.
type Predictor struct {
	Mean  float64
	Terms Table
}

// Height of the sea at the given hour, in metres.
func (p *Predictor) Height(hours float64) float64 {
	total := p.Mean
	for _, term := range p.Terms {
		total += term.Height(hours)
	}
	return total
}

// Extremes scans [start, stop) in steps and reports every turning point.
func (p *Predictor) Extremes(start, stop, step float64) []Extreme {
	var found []Extreme
	before := p.Height(start - step)
	now := p.Height(start)
	for t := start; t < stop; t += step {
		after := p.Height(t + step)
		if now > before && now >= after {
			found = append(found, Extreme{Hour: t, Height: now, High: true})
		} else if now < before && now <= after {
			found = append(found, Extreme{Hour: t, Height: now, High: false})
		}
		before, now = now, after
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Hour < found[j].Hour })
	return found
}

// Format prints one line per extreme: "HIGH  06:12  +1.84 m".
func Format(extremes []Extreme) string {
	out := ""
	for _, e := range extremes {
		label := "LOW "
		if e.High {
			label = "HIGH"
		}
		minutes := int(math.Round(e.Hour * 60))
		out += fmt.Sprintf("%s  %02d:%02d  %+.2f m\n", label, minutes/60%24, minutes%60, e.Height)
	}
	return out
}

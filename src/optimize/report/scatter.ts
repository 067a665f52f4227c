/**
 * The objective against each parameter: one small scatter per param, objective up, param value
 * across, numeric params on a linear axis and the others (booleans, lists of texts) as categories.
 *
 * Drawn here as inline SVG, not with the charting library: lightweight-charts plots series over a
 * time axis, one value per time, so it has no place for many trials at one param value nor for a
 * category axis; faking times for param values would label the axis with dates.
 */
import { Decimal, dec } from '../../core/decimal.js';
import { escapeHtml as html } from '../../web/html.js';
import type { ParamDomain, ParamValue, StudyResult } from '../types.js';
import { STUDY_COLOURS } from './colours.js';
import { fixed4, paramDecimal, paramText } from './format.js';
import { bands, linearScale, pixel, spread, type Box } from './scatter-scale.js';
import type { Trial } from './trials-table.js';

/** Points per scatter at most; a larger study is sampled evenly by trial order (the note says so). */
export const MAX_SCATTER_POINTS = 2000;

const WIDTH = 340;
const HEIGHT = 230;
const PLOT: Box = { left: 64, top: 12, width: WIDTH - 64 - 14, height: HEIGHT - 12 - 40 };

interface Point {
  trial: Trial;
  value: ParamValue;
  objective: Decimal;
}

/** The trials a scatter shows: the search's own (walk-forward test runs are in their table) with an objective. */
export function scatterPoints(trials: readonly Trial[], name: string): Point[] {
  const out: Point[] = [];
  for (const trial of [...trials].sort((a, b) => a.index - b.index)) {
    if (trial.window.phase === 'test' || trial.objective === null || !Object.hasOwn(trial.params, name)) continue;
    out.push({ trial, value: trial.params[name] as ParamValue, objective: dec(trial.objective) });
  }
  if (out.length <= MAX_SCATTER_POINTS) return out;
  return Array.from({ length: MAX_SCATTER_POINTS }, (_, i) => out[Math.floor((i * out.length) / MAX_SCATTER_POINTS)] as Point);
}

/** Category order: the space file's own for a list of values, then any other value seen, in trial order. */
export function categoriesOf(domain: ParamDomain, points: readonly Point[]): string[] {
  const seen = domain.kind === 'values' ? domain.values.map(paramText) : [];
  for (const p of points) if (!seen.includes(paramText(p.value))) seen.push(paramText(p.value));
  return seen;
}

/** Numeric axis when the domain is a range, or a list whose every value (and every seen value) is a number. */
export function isNumericParam(domain: ParamDomain, points: readonly Point[]): boolean {
  const listed = domain.kind === 'values' ? domain.values : [];
  return [...listed, ...points.map((p) => p.value)].every((v) => typeof v !== 'boolean' && paramDecimal(v) !== undefined);
}

function text(x: string, y: string, anchor: string, label: string): string {
  return `<text x="${x}" y="${y}" text-anchor="${anchor}">${html(label)}</text>`;
}

function xAxis(numeric: boolean, categories: readonly string[], xs: Decimal[]): { place: (p: Point) => string; labels: string } {
  const base = pixel(new Decimal(PLOT.top + PLOT.height + 16));
  if (numeric) {
    const scale = linearScale(xs, PLOT.left, PLOT.left + PLOT.width);
    const labels = text(pixel(new Decimal(PLOT.left)), base, 'start', scale.lo.toFixed()) + text(pixel(new Decimal(PLOT.left + PLOT.width)), base, 'end', scale.hi.toFixed());
    return { place: (p) => scale.at(paramDecimal(p.value) as Decimal), labels };
  }
  const band = bands(categories.length, PLOT.left, PLOT.left + PLOT.width);
  const labels = categories.map((c, i) => text(pixel(band.centre(i)), base, 'middle', c.length > 16 ? `${c.slice(0, 15)}…` : c)).join('');
  return { place: (p) => pixel(band.centre(categories.indexOf(paramText(p.value))).plus(spread(p.trial.index, band.width))), labels };
}

function frame(): string {
  return `<rect class="plot" x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.width}" height="${PLOT.height}"></rect>`;
}

function yAxis(points: readonly Point[]): { place: (p: Point) => string; labels: string } {
  const scale = linearScale(points.map((p) => p.objective), PLOT.top + PLOT.height, PLOT.top);
  const x = pixel(new Decimal(PLOT.left - 6));
  const zero = scale.lo.lt(0) && scale.hi.gt(0)
    ? `<line class="zero" x1="${PLOT.left}" x2="${PLOT.left + PLOT.width}" y1="${scale.at(new Decimal(0))}" y2="${scale.at(new Decimal(0))}"></line>`
    : '';
  const labels = text(x, pixel(new Decimal(PLOT.top + 10)), 'end', fixed4(scale.hi.toFixed())) + text(x, pixel(new Decimal(PLOT.top + PLOT.height)), 'end', fixed4(scale.lo.toFixed()));
  return { place: (p) => scale.at(p.objective), labels: labels + zero };
}

function svg(name: string, domain: ParamDomain, points: readonly Point[], objective: string): string {
  const numeric = isNumericParam(domain, points);
  const categories = numeric ? [] : categoriesOf(domain, points);
  const x = xAxis(numeric, categories, numeric ? points.map((p) => paramDecimal(p.value) as Decimal) : []);
  const y = yAxis(points);
  const dots = points.map((p) => {
    const tip = `trial ${p.trial.index}: ${name}=${paramText(p.value)}, ${objective} ${p.objective.toFixed()}`;
    return `<circle cx="${x.place(p)}" cy="${y.place(p)}" r="3.5" fill="${STUDY_COLOURS.point}"><title>${html(tip)}</title></circle>`;
  });
  const label = `${objective} against ${name}`;
  return `<svg class="scatter" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${html(label)}">`
    + `${frame()}${y.labels}${x.labels}<g class="points">${dots.join('')}</g></svg>`;
}

function figure(result: StudyResult, name: string, domain: ParamDomain, i: number): string {
  const points = scatterPoints(result.trials, name);
  const plot = points.length === 0 ? '<p class="note">No trial with an objective value to draw.</p>' : svg(name, domain, points, result.objective);
  return `<figure class="scatter-box" id="scatter-${i}"><figcaption>${html(name)} <span class="note">(${html(domain.kind)})</span></figcaption>${plot}</figure>`;
}

export function scatterSection(result: StudyResult): string {
  if (result.space.params.length === 0) return '<p class="note">The search space has no parameter.</p>';
  const searched = result.trials.filter((t) => t.window.phase !== 'test' && t.objective !== null).length;
  if (searched === 0) return '<p class="note" id="no-scatter">No search trial produced an objective value: there is nothing to draw.</p>';
  const figures = result.space.params.map((p, i) => figure(result, p.name, p.domain, i)).join('\n');
  const sampled = searched > MAX_SCATTER_POINTS ? ` ${MAX_SCATTER_POINTS} of the ${searched} are drawn, evenly by trial order.` : '';
  return `<div class="scatters">\n${figures}\n</div>\n<p class="note">Each dot is one search trial with an objective (for a walk-forward study, the train windows of every fold);`
    + ` a trial without one is not drawn. Dots of a category are spread across its band so they do not hide each other.${sampled}`
    + ' Drawn as SVG: the charting library plots one value per time on a time axis, and a scatter needs many trials per value and category axes.</p>';
}

/**
 * The objective against each parameter: one small scatter per param, objective up, param value
 * across: numeric params on a linear axis (a log domain on a log axis), the others (booleans,
 * lists of texts) as categories. The best trial's dot is ringed.
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
/** Space between the frame and the extreme dots, so no dot sits on the frame. */
const PAD = 10;

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

function text(cls: 'tick' | 'category', x: string, y: string, anchor: string, label: string): string {
  return `<text class="${cls}" x="${x}" y="${y}" text-anchor="${anchor}">${html(label)}</text>`;
}

/** A log domain's values are evenly spaced in log space: drawn on a log axis they are evenly spaced too. */
function logAxis(domain: ParamDomain, xs: readonly Decimal[]): boolean {
  return domain.kind === 'log' && xs.every((x) => x.gt(0));
}

function xAxis(domain: ParamDomain, numeric: boolean, categories: readonly string[], xs: Decimal[]): { place: (p: Point) => string; labels: string } {
  const base = pixel(new Decimal(PLOT.top + PLOT.height + 16));
  if (numeric) {
    const [from, to] = [PLOT.left + PAD, PLOT.left + PLOT.width - PAD];
    const log = logAxis(domain, xs);
    const axis = (v: Decimal): Decimal => (log ? v.ln() : v);
    const scale = linearScale(xs.map(axis), from, to);
    const [lo, hi] = [Decimal.min(...xs), Decimal.max(...xs)];
    const ends = lo.eq(hi) ? [[lo, (from + to) / 2] as const] : [[lo, from] as const, [hi, to] as const];
    const labels = ends.map(([v, at]) => text('tick', pixel(new Decimal(at)), base, 'middle', v.toFixed())).join('');
    return { place: (p) => scale.at(axis(paramDecimal(p.value) as Decimal)), labels };
  }
  const band = bands(categories.length, PLOT.left, PLOT.left + PLOT.width);
  const labels = categories.map((c, i) => text('category', pixel(band.centre(i)), base, 'middle', c.length > 16 ? `${c.slice(0, 15)}…` : c)).join('');
  return { place: (p) => pixel(band.centre(categories.indexOf(paramText(p.value))).plus(spread(p.trial.index, band.width))), labels };
}

function frame(): string {
  return `<rect class="plot" x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.width}" height="${PLOT.height}"></rect>`;
}

function yAxis(points: readonly Point[]): { place: (p: Point) => string; labels: string } {
  const [bottom, top] = [PLOT.top + PLOT.height - PAD, PLOT.top + PAD];
  const scale = linearScale(points.map((p) => p.objective), bottom, top);
  const x = pixel(new Decimal(PLOT.left - 6));
  const zero = scale.lo.lt(0) && scale.hi.gt(0)
    ? `<line class="zero" x1="${PLOT.left}" x2="${PLOT.left + PLOT.width}" y1="${scale.at(new Decimal(0))}" y2="${scale.at(new Decimal(0))}"></line>`
    : '';
  const ends = scale.lo.eq(scale.hi) ? [[scale.lo, (bottom + top) / 2] as const] : [[scale.hi, top] as const, [scale.lo, bottom] as const];
  // +4: the text's baseline, so the label's middle is level with the value.
  const labels = ends.map(([v, at]) => text('tick', x, pixel(new Decimal(at + 4)), 'end', fixed4(v.toFixed()))).join('');
  return { place: (p) => scale.at(p.objective), labels: labels + zero };
}

/** The best trial itself: its params and objective are the result's best (a walk-forward study may repeat them per fold). */
export function isBestTrial(trial: Trial, best: StudyResult['best']): boolean {
  if (best === null || trial.objective !== best.objective) return false;
  const names = Object.keys(best.params);
  return names.length === Object.keys(trial.params).length && names.every((n) => Object.hasOwn(trial.params, n) && trial.params[n] === best.params[n]);
}

function svg(name: string, domain: ParamDomain, points: readonly Point[], result: StudyResult): string {
  const { objective } = result;
  const numeric = isNumericParam(domain, points);
  const categories = numeric ? [] : categoriesOf(domain, points);
  const x = xAxis(domain, numeric, categories, numeric ? points.map((p) => paramDecimal(p.value) as Decimal) : []);
  const y = yAxis(points);
  const dots = points.map((p) => {
    const tip = `trial ${p.trial.index}: ${name}=${paramText(p.value)}, ${objective} ${p.objective.toFixed()}`;
    return `<circle cx="${x.place(p)}" cy="${y.place(p)}" r="3.5" fill="${STUDY_COLOURS.point}"><title>${html(tip)}</title></circle>`;
  });
  // Drawn last, so no other dot covers it.
  const rings = points.filter((p) => isBestTrial(p.trial, result.best))
    .map((p) => `<circle class="best" cx="${x.place(p)}" cy="${y.place(p)}" r="6.5" fill="none" stroke="${STUDY_COLOURS.best}" stroke-width="2"></circle>`);
  const label = `${objective} against ${name}`;
  return `<svg class="scatter" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${html(label)}">`
    + `${frame()}${y.labels}${x.labels}<g class="points">${dots.join('')}</g>${rings.join('')}</svg>`;
}

function figure(result: StudyResult, name: string, domain: ParamDomain, i: number): string {
  const points = scatterPoints(result.trials, name);
  const plot = points.length === 0 ? '<p class="note">No trial with an objective value to draw.</p>' : svg(name, domain, points, result);
  return `<figure class="scatter-box" id="scatter-${i}"><figcaption>${html(name)} <span class="note">(${html(domain.kind)}${domain.kind === 'log' ? ', log axis' : ''})</span></figcaption>${plot}</figure>`;
}

export function scatterSection(result: StudyResult): string {
  if (result.space.params.length === 0) return '<p class="note">The search space has no parameter.</p>';
  const searched = result.trials.filter((t) => t.window.phase !== 'test' && t.objective !== null).length;
  if (searched === 0) return '<p class="note" id="no-scatter">No search trial produced an objective value: there is nothing to draw.</p>';
  const figures = result.space.params.map((p, i) => figure(result, p.name, p.domain, i)).join('\n');
  const sampled = searched > MAX_SCATTER_POINTS ? ` ${MAX_SCATTER_POINTS} of the ${searched} are drawn, evenly by trial order.` : '';
  return `<div class="scatters">\n${figures}\n</div>\n<p class="note">Each dot is one search trial with an objective (for a walk-forward study, the train windows of every fold);`
    + ` a trial without one is not drawn. The ringed dot is the best trial. Dots of a category are spread across its band so they do not hide each other.${sampled}`
    + ' Drawn as SVG: the charting library plots one value per time on a time axis, and a scatter needs many trials per value and category axes.</p>';
}

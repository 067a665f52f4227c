import { describe, expect, it } from 'vitest';
import { gridPoints, randomPoints } from '../../../src/optimize/search.js';
import { SpaceError, domainValues, parseSpace } from '../../../src/optimize/space.js';

const SPACE = parseSpace(
  JSON.stringify({ strategy: 'grid1', params: { levels: { range: [2, 4], step: 1 }, spacingPct: { log: ['0.1', '1'], steps: 3 }, postOnly: { values: [true, false] } } }),
);

describe('grid search', () => {
  it('gives the cartesian product in order, the last param fastest', () => {
    const points = gridPoints(SPACE);
    expect(points).toHaveLength(3 * 3 * 2);
    expect(points.slice(0, 3)).toEqual([
      { levels: 2, spacingPct: '0.1', postOnly: true },
      { levels: 2, spacingPct: '0.1', postOnly: false },
      { levels: 2, spacingPct: '0.316228', postOnly: true },
    ]);
    expect(points[17]).toEqual({ levels: 4, spacingPct: '1', postOnly: false });
    expect(new Set(points.map((p) => JSON.stringify(p))).size).toBe(18);
  });

  it('refuses a grid over the cap, saying how big it is', () => {
    expect(() => gridPoints(SPACE, 17)).toThrow(SpaceError);
    expect(() => gridPoints(SPACE, 17)).toThrow(/the grid has 18 points \(levels 3 × spacingPct 3 × postOnly 2\), more than the cap of 17/);
  });
});

describe('random search', () => {
  it('replays the same draws from the same seed, and others from another seed', () => {
    expect(randomPoints(SPACE, 8, 7)).toEqual(randomPoints(SPACE, 8, 7));
    expect(randomPoints(SPACE, 8, 7)).not.toEqual(randomPoints(SPACE, 8, 8));
  });

  it('draws distinct points inside the domains', () => {
    const points = randomPoints(SPACE, 12, 3);
    expect(points).toHaveLength(12);
    expect(new Set(points.map((p) => JSON.stringify(p))).size).toBe(12);
    const domains = SPACE.params.map((p) => [p.name, domainValues(p.domain)] as const);
    for (const point of points) for (const [name, values] of domains) expect(values).toContain(point[name]);
  });

  it('gives the whole grid, each point once, when asked for more trials than it has', () => {
    const points = randomPoints(SPACE, 50, 1);
    expect(points).toHaveLength(18);
    expect(new Set(points.map((p) => JSON.stringify(p)))).toEqual(new Set(gridPoints(SPACE).map((p) => JSON.stringify(p))));
  });
});

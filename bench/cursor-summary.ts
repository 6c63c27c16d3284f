// What --compare-scales says of keyset pagination (issue 14) when shapes 20 and 21 ran: at each scale,
// the deep page by cursor against the cursor's first page (the target: within 10 % at 1,000,000
// users), and with 19 and 22 against the same page by OFFSET and a walk's pages against the first
// page, for the plugin and for the floor.

interface ScaleFigures {
  readonly scale: number;
  readonly plugin: number;
  readonly floor: number;
}

interface ShapeFigures {
  readonly id: number;
  readonly perScale: readonly ScaleFigures[];
}

const ratio = (a: number | undefined, b: number | undefined): string =>
  a === undefined || b === undefined || b === 0 ? 'n/a' : (a / b).toFixed(2);

/** Markdown lines (and a blank line after them), or none when the cursor shapes did not run. */
export function cursorComparison(shapes: readonly ShapeFigures[]): string[] {
  const byId = (id: number) => shapes.find((s) => s.id === id);
  const [offset, first, deep, walk] = [byId(19), byId(20), byId(21), byId(22)];
  if (first === undefined || deep === undefined) return [];
  const lines = deep.perScale.map((d, i) => {
    const f = first.perScale[i];
    const o = offset?.perScale[i];
    const w = walk?.perScale[i];
    return (
      `- ${d.scale.toLocaleString('en-US')} users: deep cursor page / first cursor page ${ratio(d.plugin, f?.plugin)} (floor ${ratio(d.floor, f?.floor)})` +
      (o === undefined ? '' : `; deep page by cursor / by OFFSET ${ratio(d.plugin, o.plugin)} (floor ${ratio(d.floor, o.floor)})`) +
      (w === undefined ? '' : `; walk / first cursor page ${ratio(w.plugin, f?.plugin)} (floor ${ratio(w.floor, f?.floor)})`)
    );
  });
  return ['Keyset pagination (shapes 19-22, throughput ratios):', ...lines, ''];
}

// Owns finding the page's fixed elements (written in index.html) with their real types, and the
// small page-wide behaviours: result tabs, copying text, and status messages.

export function element<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return found;
}

export const tabNames = ['table', 'json', 'sql'] as const;
export type TabName = (typeof tabNames)[number];

/** Shows one result panel; the tabs follow the WAI-ARIA tabs pattern (arrow keys move between them). */
export function selectTab(name: TabName, focus = false): void {
  for (const other of tabNames) {
    const tab = element(`tab-${other}`, HTMLButtonElement);
    const selected = other === name;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    element(`panel-${other}`, HTMLDivElement).hidden = !selected;
    if (selected && focus) tab.focus();
  }
}

export function installTabs(): void {
  tabNames.forEach((name, index) => {
    const tab = element(`tab-${name}`, HTMLButtonElement);
    tab.addEventListener('click', () => selectTab(name));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (step === 0) return;
      event.preventDefault();
      const next = tabNames[(index + step + tabNames.length) % tabNames.length];
      if (next !== undefined) selectTab(next, true);
    });
  });
}

/** Copies with the Clipboard API, or with a hidden textarea where that API is unavailable (plain http). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the fallback where navigator.clipboard is missing (a page served over plain http); no replacement exists there
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

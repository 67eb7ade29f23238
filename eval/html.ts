/**
 * HTML made from run data, escaped by construction. `html` is a tagged template: its literal
 * text is code, and every value put into it is escaped, numbers included (a field typed as a
 * number may hold a string of markup at run time), unless it is SafeHtml, which only `html`
 * makes. An array is its items, each so; null, undefined and false are nothing.
 */

/** Text made safe inside HTML or SVG, in element content and in quoted attributes alike. */
export const escapeHtml = (s: string): string => String(s).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Markup that `html` made (the class is not exported: nothing else can make one). */
class SafeHtml {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}
export type { SafeHtml };

/** What a template takes. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const piece = (v: unknown): string => {
  if (v instanceof SafeHtml) return v.toString();
  if (Array.isArray(v)) return v.map(piece).join('');
  if (v === null || v === undefined || v === false) return '';
  return escapeHtml(String(v));
};

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let text = strings[0];
  values.forEach((v, i) => (text += piece(v) + strings[i + 1]));
  return new SafeHtml(text);
}

/** The items with `separator` between them. */
export const joinHtml = (items: readonly HtmlValue[], separator: SafeHtml | string): HtmlValue[] => items.flatMap((x, i) => (i === 0 ? [x] : [separator, x]));

/** Text made safe inside HTML or SVG, in element content and in quoted attributes alike. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

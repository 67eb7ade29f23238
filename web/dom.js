/**
 * A tiny element builder, so rendering reads as the markup it makes:
 *
 *   el('button.action', { dataset: { action: 3 }, onclick: go }, 'play Beer')
 *
 * The tag may carry classes after dots. Props: `dataset`, `on<event>` handlers, `class` (added
 * to the dotted ones), boolean attributes (true sets, false/null/undefined skip), any other
 * attribute. Children: nodes, strings, numbers, arrays of them; null/undefined/false are skipped.
 */

/** @typedef {Node | string | number | null | undefined | false | any[]} Child  (arrays of children nest) */

/**
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const node = document.createElement(name || 'div');
  if (classes.length > 0) node.className = classes.join(' ');
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'class') node.classList.add(...String(value).split(' ').filter(Boolean));
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** @param {Element} node @param {Child[]} children */
function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(typeof c === 'number' ? String(c) : c);
  }
}

/** Replaces an element's children. @param {Element} node @param {...Child} children */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

/** @param {string} id @returns {HTMLElement} */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
}

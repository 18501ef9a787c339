// The board picture as the server sends it, in pieces (docs/web.md "The state message":
// root, head, defs, mid, spaces in order, tail): drawn whole from a full state, then on a
// delta patched where it changed: the spaces and shapes (<defs>) the delta touched are
// parsed and put in place of their old nodes, the root's attributes and the background
// set, the spaces moved into the new order; every other node stays as it is (its focus,
// its classes). Pure drawing: what the page adds (marks, names, focus) is marks.js's.
import { boardSvg, defIds } from "./protocol.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const DEFS_END = "</defs>";

// The nodes of an SVG fragment, parsed as children of an <svg> element of this document.
function parseSvg(text) {
  const holder = document.createElementNS(SVG_NS, "svg");
  holder.innerHTML = text;
  return [...holder.childNodes];
}

// The attributes of the <svg ...> tag that opens the picture.
function rootAttributes(root) {
  const [svg] = parseSvg(root + "</svg>");
  return new Map([...svg.attributes].map((a) => [a.name, a.value]));
}

export class BoardPicture {
  constructor(container) {
    this.container = container;
    this.clear();
  }

  clear() {
    this.container.innerHTML = "";
    this.svg = null;
    this.order = [];
    this.patchable = false;
    this.nodes = new Map(); // space label -> its <g class="space">
    this.shapes = new Map(); // <defs> id -> its node
    this.rootAttrs = null; // the root tag's attributes as the server drew them
  }

  // The picture drawn whole (one parse of the joined string). It can be patched later if
  // it has the server's form: a <defs> of the shapes, then `mid`'s nodes, then the spaces.
  draw(board) {
    this.container.innerHTML = boardSvg(board);
    this.svg = this.container.querySelector("svg");
    this.order = board.order.slice();
    this.nodes = new Map([...this.svg.querySelectorAll(":scope > g.space")].map((g) => [g.dataset.cell, g]));
    this.defs = this.svg.querySelector(":scope > defs");
    const middle = this.midNodes(board.mid);
    this.rootAttrs = rootAttributes(board.root);
    this.patchable = !!(this.defs && middle);
    if (!this.patchable) return;
    this.shapes = new Map([...this.defs.children].map((n) => [n.id, n]));
    this.middle = [];
    for (let node = this.defs.nextSibling; this.middle.length < middle.length; node = node.nextSibling) this.middle.push(node);
  }

  // What follows </defs> before the spaces (the background), as nodes; null if `mid` is
  // not of that form.
  midNodes(mid) {
    return mid.startsWith(DEFS_END) ? parseSvg(mid.slice(DEFS_END.length)) : null;
  }

  // The picture brought to `board` after a message that touched what `touched` names:
  // { whole } if it was drawn whole, else the labels of the spaces drawn anew (`changed`)
  // and whether the root's attributes changed.
  update(board, touched) {
    const parts = touched.board;
    const whole = touched.all || !this.svg || !this.patchable || ["all", "head", "tail", "spaces", "defs"].some((p) => parts.has(p)) ||
      (parts.has("mid") && !this.midNodes(board.mid));
    if (whole) {
      this.draw(board);
      return { whole: true, changed: [...this.nodes.keys()], root: true };
    }
    const root = parts.has("root") && this.setRoot(board.root);
    if (touched.defs.size && !this.setShapes(board, touched.defs)) {
      this.draw(board);
      return { whole: true, changed: [...this.nodes.keys()], root: true };
    }
    if (parts.has("mid")) this.setMiddle(this.midNodes(board.mid));
    const changed = [];
    for (const cell of touched.spaces) {
      const old = this.nodes.get(cell);
      const text = board.spaces[cell];
      if (text === undefined) {
        if (old) old.remove();
        this.nodes.delete(cell);
        continue;
      }
      const [node] = parseSvg(text);
      if (old) old.replaceWith(node);
      this.nodes.set(cell, node);
      changed.push(cell);
    }
    if (parts.has("order") || changed.some((c) => !this.nodes.get(c).isConnected)) this.arrange(board.order);
    return { whole: false, changed, root };
  }

  // The root's attributes that the server changed (the view box as the board grows, its
  // name); true if any did. Attributes the page set itself are left alone otherwise.
  setRoot(root) {
    const now = rootAttributes(root);
    let changed = false;
    for (const [name, value] of now) {
      if (this.rootAttrs.get(name) !== value) { this.svg.setAttribute(name, value); changed = true; }
    }
    for (const name of this.rootAttrs.keys()) {
      if (!now.has(name)) { this.svg.removeAttribute(name); changed = true; }
    }
    this.rootAttrs = now;
    return changed;
  }

  // Shapes set or deleted, each put where the id order puts it; false if one is not a
  // single element with its id (then the picture is drawn whole).
  setShapes(board, ids) {
    const order = defIds(board);
    for (const id of ids) {
      const old = this.shapes.get(id);
      if (board.defs[id] === undefined) {
        if (old) old.remove();
        this.shapes.delete(id);
        continue;
      }
      const nodes = parseSvg(board.defs[id]);
      if (nodes.length !== 1 || nodes[0].id !== id) return false;
      if (old) old.replaceWith(nodes[0]);
      this.shapes.set(id, nodes[0]);
    }
    let next = this.defs.firstChild;
    for (const id of order) { // the new ones into their places, the others stay
      const node = this.shapes.get(id);
      if (node === next) next = node.nextSibling;
      else this.defs.insertBefore(node, next);
    }
    return true;
  }

  setMiddle(nodes) {
    for (const old of this.middle) old.remove();
    this.defs.after(...nodes);
    this.middle = nodes;
  }

  // The spaces in the board's drawing order: only those out of place move.
  arrange(order) {
    this.order = order.slice();
    const last = this.middle.length ? this.middle[this.middle.length - 1] : this.defs;
    let next = last.nextSibling;
    const wanted = new Set(order);
    for (const [cell, node] of this.nodes) {
      if (!wanted.has(cell)) { node.remove(); this.nodes.delete(cell); }
    }
    for (const cell of order) {
      const node = this.nodes.get(cell);
      if (!node) continue;
      if (node === next) next = node.nextSibling;
      else this.svg.insertBefore(node, next);
    }
  }

  // The view box the server drew (the page may show less of it: TK.fitBoard).
  serverViewBox() {
    return this.rootAttrs ? this.rootAttrs.get("viewBox") : null;
  }

  // The spaces in drawing order, as [label, node].
  spaces() {
    return this.order.map((cell) => [cell, this.nodes.get(cell)]).filter(([, node]) => node);
  }

  overlay() {
    return this.svg && this.svg.querySelector(":scope > g.overlay");
  }
}

/**
 * The Decimal class frozen for a thread that runs strategies: no strategy may change how the
 * engine's decimals compute (its methods, its configuration, its prototype), nor add a property
 * that changes how they behave (`Symbol.toPrimitive`, `toJSON`…).
 *
 * Not `harden`: decimal.js gives each new decimal its own `constructor` by assignment
 * (`x.constructor = Decimal`), which a frozen prototype's `constructor` would refuse, and an
 * accessor there (as lockdown's override taming makes) costs about 2.5x on every decimal made.
 * So the prototype keeps that one property writable (it is read by no one: every decimal reads
 * its own) and everything else is fixed: the prototype takes no new property, its methods are
 * frozen and cannot be replaced, and the class's settings and `prototype` cannot be changed.
 */
import { Decimal } from '../../core/decimal.js';

/** A method frozen, with the `prototype` object a plain function carries (what `harden` would reach of it). */
function freezeMethod(f: object): void {
  Object.freeze(f);
  const prototype: unknown = (f as { prototype?: unknown }).prototype;
  if (typeof prototype === 'object' && prototype !== null) Object.freeze(prototype);
}

/** Every property of `o` fixed (not writable, not configurable), except `keep`'s writability; no new property. */
function fixProperties(o: object, keep?: PropertyKey): void {
  for (const key of Reflect.ownKeys(o)) {
    const d = Reflect.getOwnPropertyDescriptor(o, key);
    if (d === undefined) continue;
    // The prototype's `constructor` is a class of its own, fixed by `freezeDecimal`.
    if (typeof d.value === 'function' && key !== 'constructor') freezeMethod(d.value as object);
    const fixed: PropertyDescriptor = 'value' in d ? { configurable: false, writable: key === keep } : { configurable: false };
    Object.defineProperty(o, key, fixed);
  }
  Object.preventExtensions(o);
}

let frozen = false;

/** Freezes the engine's Decimal, the class decimal.js made first (the prototype's `constructor`), and their shared prototype. */
export function freezeDecimal(): void {
  if (frozen) return;
  const prototype = Decimal.prototype as object;
  const first = (prototype as { constructor: object }).constructor;
  fixProperties(prototype, 'constructor');
  // Each class: its settings and its `prototype` link.
  fixProperties(Decimal);
  if (first !== Decimal) fixProperties(first);
  frozen = true;
}

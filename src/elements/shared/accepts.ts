/**
 * What the elements' attributes accept (reactive.ts `accepts`): a value outside it is said on the
 * console, naming the element, the attribute and this, and the property keeps its default.
 */
/**
 * A `<type>:<uuid>` id (api.md "Identifiers"; core/shapes.ts isId, not imported, which would
 * bring the core's error shapes up front): anything else would only be refused upstream.
 */
export const idOf = (type: string) =>
  [(v: unknown) => new RegExp(`^${type}:[\\da-f]{8}(-[\\da-f]{4}){3}-[\\da-f]{12}$`, 'i').test(v as string), `a ${type}:<uuid> id`] as const;

/** A number from `min` to `max` (an integer when `integer`): NaN from "abc" or a negative delay would break timers. */
export const range = (min: number, max = Infinity, integer?: boolean) =>
  [(v: unknown) => typeof v === 'number' && v >= min && v <= max && (!integer || Number.isInteger(v)), `a${integer ? 'n integer' : ' number'} from ${min}${max < Infinity ? ` to ${max}` : ' up'}`] as const;

/** An option as stored, days as `YYYY-MM-DD`. */
export interface OptionRecord {
  id: string;
  propertyId: string;
  name: string;
  color: string;
  position: string;
  startsOn: string | null;
  targetOn: string | null;
  note: string | null;
  shippedAt: string | null;
}

export interface OptionView {
  id: string;
  propertyId: string;
  name: string;
  color: string;
  position: string;
  startsOn?: string | null;
  targetOn?: string | null;
  note?: string | null;
  shippedAt?: string | null;
}

/** The option read shape: the dated keys only on options of a dated select or an iteration. */
export function optionView(o: OptionRecord, dated: boolean): OptionView {
  const view: OptionView = { id: o.id, propertyId: o.propertyId, name: o.name, color: o.color, position: o.position };
  if (dated) Object.assign(view, { startsOn: o.startsOn, targetOn: o.targetOn, note: o.note, shippedAt: o.shippedAt });
  return view;
}

import { DomainError } from '@board/kernel';
import { CardRow, GroupingView, OptionClash, OptionRecord, optionKey, PropertyConfig, PropertyDef, PropertyRecord, PropertyRepository, Ranked } from '@board/properties';

const byPosition = <T extends { position: string }>(a: T, b: T) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0);

/**
 * PropertyRepository in memory: properties, options, card rows, and what the service only counts
 * or reads (`values`: `propertyId` → task ids holding a value, `optionTasks`: `optionId` → task
 * ids, `grouping`: `propertyId` → views grouping by it). A clashing option name is refused as the
 * unique index refuses it.
 */
export class InMemoryPropertyRepository extends PropertyRepository {
  readonly properties = new Map<string, PropertyRecord>();
  readonly options_ = new Map<string, OptionRecord & { projectId: string }>();
  readonly cardRows = new Map<string, CardRow>();
  readonly values = new Map<string, string[]>();
  readonly optionTasks = new Map<string, string[]>();
  readonly grouping = new Map<string, GroupingView[]>();
  private created = 0;

  async findProperty(projectId: string, id: string): Promise<PropertyRecord | null> {
    const property = this.properties.get(id);
    return property?.projectId === projectId ? structuredClone(property) : null;
  }

  async propertyRanks(projectId: string): Promise<Ranked[]> {
    return [...this.properties.values()].filter((p) => p.projectId === projectId).sort(byPosition).map(({ id, position }) => ({ id, position }));
  }

  async lastPropertyPosition(projectId: string): Promise<string | null> {
    return (await this.propertyRanks(projectId)).pop()?.position ?? null;
  }

  async insertProperty(property: Omit<PropertyRecord, 'createdAt'>): Promise<PropertyRecord> {
    const record = { ...structuredClone(property), createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, this.created++)) };
    this.properties.set(record.id, record);
    return structuredClone(record);
  }

  async updateProperty(projectId: string, id: string, change: { name?: string; position?: string; config?: PropertyConfig }): Promise<void> {
    const property = this.properties.get(id);
    if (property?.projectId === projectId) Object.assign(property, structuredClone(change));
  }

  async groupingViews(_projectId: string, propertyId: string): Promise<GroupingView[]> {
    return this.grouping.get(propertyId) ?? [];
  }

  async deleteProperty(projectId: string, propertyId: string): Promise<void> {
    if (this.properties.get(propertyId)?.projectId !== projectId) return;
    this.properties.delete(propertyId);
    for (const [id, o] of this.options_) if (o.propertyId === propertyId) this.options_.delete(id);
    this.cardRows.delete(propertyId);
  }

  async countValues(_projectId: string, propertyId: string): Promise<number> {
    return this.values.get(propertyId)?.length ?? 0;
  }

  async cardRow(_projectId: string, propertyId: string): Promise<CardRow | null> {
    return this.cardRows.get(propertyId) ?? null;
  }

  async setCardRow(_projectId: string, propertyId: string, row: CardRow): Promise<void> {
    this.cardRows.set(propertyId, { ...row });
  }

  async options(projectId: string, propertyId: string): Promise<OptionRecord[]> {
    return [...this.options_.values()].filter((o) => o.projectId === projectId && o.propertyId === propertyId).sort(byPosition).map(({ projectId: _p, ...o }) => o);
  }

  async findOption(projectId: string, optionId: string): Promise<OptionRecord | null> {
    const option = this.options_.get(optionId);
    if (option?.projectId !== projectId) return null;
    const { projectId: _p, ...record } = option;
    return record;
  }

  async insertOption(projectId: string, option: Omit<OptionRecord, 'shippedAt'>, clash: OptionClash): Promise<void> {
    this.refuseClash(projectId, option.propertyId, option.id, option.name, clash);
    this.options_.set(option.id, { shippedAt: null, ...option, projectId });
  }

  async updateOption(projectId: string, option: OptionRecord, clash: OptionClash): Promise<void> {
    this.refuseClash(projectId, option.propertyId, option.id, option.name, clash);
    if (this.options_.get(option.id)?.projectId === projectId) this.options_.set(option.id, { ...option, projectId });
  }

  async deleteOption(projectId: string, _propertyId: string, optionId: string): Promise<void> {
    if (this.options_.get(optionId)?.projectId === projectId) this.options_.delete(optionId);
  }

  async countOptionTasks(_projectId: string, _propertyId: string, optionId: string): Promise<number> {
    return this.optionTasks.get(optionId)?.length ?? 0;
  }

  /** The project's properties as the value rules know them (what `PropertyDefsQuery.load` answers), from this store. */
  defs(projectId: string): PropertyDef[] {
    return [...this.properties.values()].filter((p) => p.projectId === projectId).sort(byPosition).map((p) => ({
      id: p.id, name: p.name, type: p.type, position: p.position, config: p.config,
      optionIds: new Set([...this.options_.values()].filter((o) => o.propertyId === p.id).map((o) => o.id)),
    }));
  }

  private refuseClash(projectId: string, propertyId: string, id: string, name: string, clash: OptionClash): void {
    const taken = [...this.options_.values()].some((o) => o.projectId === projectId && o.propertyId === propertyId && o.id !== id && optionKey(o.name) === optionKey(name));
    if (taken) throw new DomainError('option.duplicate', clash);
  }
}

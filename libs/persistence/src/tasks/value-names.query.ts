/** The names a value's feed line shows: of a property's options, and of a person. */
export abstract class ValueNamesQuery {
  /** id → name of those of `optionIds` that are options of `propertyId` in project `projectId`. */
  abstract optionNames(projectId: string, propertyId: string, optionIds: string[]): Promise<{ id: string; name: string }[]>;

  /** The person's name, or null when there is no such person. */
  abstract personName(userId: string): Promise<string | null>;

  /**
   * Adds to `names` the names of the options (by property) and people in `shown` that it does not
   * hold yet: what the feed lines of a value write show (`namesShown` of @board/tasks).
   */
  abstract addNames(projectId: string, shown: { options: ReadonlyMap<string, readonly string[]>; people: readonly string[] }, names: Map<string, string>): Promise<void>;
}

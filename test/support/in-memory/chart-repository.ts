import { ChartRecord, ChartRepository, FlowProperty } from '@board/charts';

/**
 * ChartRepository in memory. `members` holds `userId:projectId` of each membership; `properties`
 * the select (or other) properties a flow chart may follow.
 */
export class InMemoryChartRepository extends ChartRepository {
  readonly charts = new Map<string, ChartRecord>();
  readonly members = new Set<string>();
  readonly properties = new Map<string, FlowProperty>();

  async list(userId: string): Promise<ChartRecord[]> {
    return [...this.charts.values()].filter((c) => c.userId === userId).map((c) => ({ ...c }));
  }

  async find(userId: string, chartId: string): Promise<ChartRecord | null> {
    const chart = this.charts.get(chartId);
    return chart?.userId === userId ? { ...chart } : null;
  }

  async insert(chart: ChartRecord): Promise<void> {
    this.charts.set(chart.id, { ...chart });
  }

  async update(chart: ChartRecord): Promise<void> {
    const saved = this.charts.get(chart.id);
    if (saved) this.charts.set(chart.id, { ...saved, name: chart.name, projectIds: [...chart.projectIds], propertyId: chart.propertyId });
  }

  async delete(userId: string, chartId: string): Promise<boolean> {
    if (this.charts.get(chartId)?.userId !== userId) return false;
    return this.charts.delete(chartId);
  }

  async memberProjects(userId: string, projectIds: readonly string[]): Promise<Set<string>> {
    return new Set(projectIds.filter((p) => this.members.has(`${userId}:${p}`)));
  }

  async memberProjectsOfCharts(userId: string): Promise<Set<string>> {
    const charts = await this.list(userId);
    return this.memberProjects(userId, charts.flatMap((c) => c.projectIds));
  }

  async property(propertyId: string, projectIds: readonly string[]): Promise<FlowProperty | null> {
    const property = this.properties.get(propertyId);
    return property && projectIds.includes(property.projectId) ? property : null;
  }
}

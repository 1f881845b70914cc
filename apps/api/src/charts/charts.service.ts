import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, fail, parseId } from '@board/kernel';
import {
  applyChartChange, ChartChange, ChartCreate, ChartRecord, ChartRepository, chartView, checkFlowProperty, DaysAsked, dayRange, fillSeries, seriesHeads,
} from '@board/charts';
import { ChartQuery } from '@board/persistence';

/** A person's charts over their projects; the data is counted from the feed at read time. */
@Injectable()
export class ChartsService {
  constructor(
    private readonly store: ChartRepository,
    private readonly queries: ChartQuery,
    private readonly clock: Clock,
  ) {}

  async list(userId: string) {
    const [charts, visible] = await Promise.all([this.store.list(userId), this.store.memberProjectsOfCharts(userId)]);
    return charts.map((c) => chartView(c, visible));
  }

  async create(userId: string, asked: ChartCreate) {
    const { name, kind, projectIds, propertyId } = asked;
    const chart: ChartRecord = { id: randomUUID(), userId, name, kind, projectIds, propertyId, createdAt: this.clock.now() };
    const visible = await this.check(chart);
    await this.store.insert(chart);
    return chartView(chart, visible);
  }

  /** The gate of a chart's routes that read a body or a query, checked before it: the chart is the caller's. */
  async checkOwned(userId: string, rawChartId: string): Promise<void> {
    await this.load(userId, rawChartId);
  }

  async update(userId: string, rawChartId: string, change: ChartChange) {
    const saved = await this.load(userId, rawChartId);
    const chart = applyChartChange(saved, change);
    // Projects are checked when sent; a flow property whenever the projects or it change.
    const visible = await this.check(chart, change.projectIds !== undefined, change.projectIds !== undefined || change.propertyId !== undefined);
    await this.store.update(chart);
    return chartView(chart, visible);
  }

  async remove(userId: string, rawChartId: string): Promise<void> {
    if (!(await this.store.delete(userId, parseId(rawChartId, 'chart')))) fail('chart.not_found');
  }

  async data(userId: string, rawChartId: string, days: DaysAsked) {
    const chart = await this.load(userId, rawChartId);
    const range = dayRange(days, this.clock.now());
    const visible = await this.store.memberProjects(userId, chart.projectIds);
    const projectIds = chart.projectIds.filter((id) => visible.has(id));
    // A flow property whose project the reader left (or that is gone) draws no series.
    const property = chart.kind === 'flow' && chart.propertyId ? await this.store.property(chart.propertyId, projectIds) : null;
    const heads = seriesHeads(chart.kind, property && property.type === 'select' ? { propertyName: property.name, options: property.options } : null);
    const rows = heads.length === 0 ? [] : await this.queries.counts({ userId, kind: chart.kind, projectIds, propertyId: chart.propertyId, from: range.from, to: range.to });
    return { chart: chartView(chart, visible), from: range.from, to: range.to, days: range.days, series: fillSeries(heads, range.days.length, rows) };
  }

  private async load(userId: string, rawChartId: string): Promise<ChartRecord> {
    const chart = await this.store.find(userId, parseId(rawChartId, 'chart'));
    if (!chart) fail('chart.not_found');
    return chart;
  }

  /**
   * The person is a member of every chosen project (else 404 Project not found.), and a flow
   * chart's property is a select of one of them. Answers the projects the person is in.
   */
  private async check(chart: ChartRecord, projects = true, property = true): Promise<Set<string>> {
    const visible = await this.store.memberProjects(chart.userId, chart.projectIds);
    if (projects && chart.projectIds.some((id) => !visible.has(id))) fail('project.not_found');
    if (property && chart.kind === 'flow') {
      // A flow chart always names its property (readFlowProperty); none would be "not found".
      const id = chart.propertyId;
      checkFlowProperty(id === null ? null : await this.store.property(id, chart.projectIds.filter((p) => visible.has(p))));
    }
    return visible;
  }
}

/** Relevance metrics of `../shared/eval/README.md`, over one ranked list of spec ids per query. */

export type Grades = Record<string, number>;

export interface QueryMetrics {
  success1: number;
  success5: number;
  success10: number;
  mrr10: number;
  ndcg10: number;
  recall10: number;
}

export function scoreRanking(ranked: string[], grades: Grades): QueryMetrics {
  const top10 = ranked.slice(0, 10);
  const firstFull = top10.findIndex((id) => grades[id] === 2);
  const fullCount = Object.values(grades).filter((grade) => grade === 2).length;
  const successAt = (k: number) => (firstFull >= 0 && firstFull < k ? 1 : 0);
  return {
    success1: successAt(1),
    success5: successAt(5),
    success10: successAt(10),
    mrr10: firstFull >= 0 ? 1 / (firstFull + 1) : 0,
    ndcg10: ndcg(top10, grades),
    recall10: fullCount > 0 ? top10.filter((id) => grades[id] === 2).length / Math.min(10, fullCount) : 0,
  };
}

/** Graded nDCG@10: gain 2^grade − 1, discount log2(rank + 1), normalised by the ideal order. */
export function ndcg(top10: string[], grades: Grades): number {
  const dcg = (gradesInOrder: number[]) => gradesInOrder.slice(0, 10).reduce((sum, grade, index) => sum + (2 ** grade - 1) / Math.log2(index + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal > 0 ? dcg(top10.map((id) => grades[id] ?? 0)) / ideal : 0;
}

/** Share of `gold` operations among the first `k` of `endpoints` (both as `METHOD /path`). */
export function operationRecall(endpoints: string[], gold: string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(endpoints.slice(0, k).map(normaliseOperation));
  return gold.filter((operation) => top.has(normaliseOperation(operation))).length / gold.length;
}

function normaliseOperation(operation: string): string {
  const [method, path] = operation.trim().split(/\s+/, 2);
  return `${method.toUpperCase()} ${path}`;
}

export function mean(values: number[]): number {
  return values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

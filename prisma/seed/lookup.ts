/** A map entry the seed data itself guarantees; a miss is a typo in the seed's tables. */
export function lookup<V>(map: Map<string, V>, key: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Seed data refers to "${key}", which is not there (a node pool the cluster's discovery did not report?)`);
  return value;
}

/** Column types the list module knows how to compare and bind. */
export type ListFieldType = 'int' | 'float' | 'text' | 'date' | 'bool';

/** One API field of a listed resource. */
export type ListField = {
  /** SQL expression of the field, e.g. `s.code` (from the resource's own constants, never input). */
  sql: string;
  type: ListFieldType;
  /** May appear in `sort` (default true). */
  sortable?: boolean;
  /** May appear in `searchFields[]` (default true for text fields; never for others). */
  searchable?: boolean;
  /** May appear in `query[...]` (default true). */
  filterable?: boolean;
};

export type ListSpec = {
  /** Filterable / sortable / searchable fields by API name. Must include `id`. */
  fields: Record<string, ListField>;
  /** Names allowed in `fields[]` (default: the keys of `fields`). `id` is always kept. */
  outputFields?: readonly string[];
  /** Names allowed in `populate[]` (others → 422). */
  populate?: readonly string[];
  /** Extra top-level parameters the route reads itself (e.g. `type` for pools), returned in `extra`. */
  extraParams?: readonly string[];
};

/** What `parseListQuery` returns: SQL fragments with every value bound as `$n`. */
export type ListQuery = {
  /** Conditions joined with `and`; `true` when there are none. Append after your own where. */
  whereSql: string;
  /** Values of the placeholders in `whereSql`, numbered from `firstParam`. */
  params: unknown[];
  firstParam: number;
  /** `order by` body, always ending with the id so pages are stable. */
  orderBy: string;
  limit: number;
  offset: number;
  page: number;
  pageSize: number;
  /** `fields[]` asked for, or null for all fields. */
  fields: string[] | null;
  populate: string[];
  /** Values of `spec.extraParams` that were sent. */
  extra: Record<string, string>;
};

// The contract's rules that can be checked offline (§6), one file each: the forms, the pool
// builder and the records service decide and word them from here.
export * from './mixed-condition-conflicts';
export * from './pool-test-values';
export * from './pooled-within-counted';
export * from './surv-year-of';
export * from './test-not-before-collection';
export * from './site-dates-in-order';

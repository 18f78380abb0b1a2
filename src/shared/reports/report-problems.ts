/**
 * Why the BFF refuses a report's parameters (422 validation_failed, one `fields` entry per
 * parameter): the stable code of each sentence, beside the values it names, so that the app says
 * it in the person's language (issue 38). The English `message` beside it is unchanged.
 */
export type ReportProblem =
  // A parameter no report takes: {parameter}.
  | 'unknown_parameter'
  // More values than one parameter may carry: {max}.
  | 'too_many_values'
  // Species or trap names neither the lookups nor the agency's records have:
  // {names} (the first few, as asked for) and {more} (how many besides).
  | 'unknown_names'
  // The report would have more rows than a report may: {rows, budget}, on every multiplier.
  | 'too_many_rows'
  // trapnight_max below trapnight_min: {min}.
  | 'trapnights_order'
  // A number above or below its parameter's range (a year past 2200, trapnight_min 0): {max} / {min}.
  | 'above_max'
  | 'below_min'
  // Any other value out of its range or list (the app's own pickers never send one).
  | 'invalid_value';

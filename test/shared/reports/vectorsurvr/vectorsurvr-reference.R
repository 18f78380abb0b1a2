# Computes the reference figures in reference.json with vectorsurvR 1.6.3's own functions
# (R/getAbundance.R, R/getAbundanceAnomaly.R, R/getInfectionRate.R, R/getVectorIndex.R of
# GitHub UCD-DART/vectorsurvR at dbcfa9c, DESCRIPTION Version 1.6.3), sourced as they are, on
# the data frames write-csv.ts writes from sample-data.ts. Checked with R 4.2.2, dplyr 1.0.10,
# tidyr, lubridate 1.9.2, stringr, jsonlite from Debian 12.
#
#   Rscript vectorsurvr-reference.R <vectorsurvR checkout>/R <dir with the csv files> <out.json>
suppressPackageStartupMessages({
  library(dplyr); library(tidyr); library(lubridate); library(stringr); library(jsonlite)
})
args <- commandArgs(trailingOnly = TRUE)
# dplyr 1.0.10 has no pick(); getVectorIndex only uses it to merge the unseparated label text
# (Species_AB / Species_IR), never a figure or a join key.
pick <- function(...) dplyr::across(...)
# dplyr >= 1.1 (what vectorsurvR 1.6.3 users run) casts an estimator's NA (every pool positive)
# to a double inside case_when; dplyr 1.0.10 refuses the mixed types. This case_when keeps
# the first branch whose condition holds, as a double, and so gives 1.1's result.
case_when <- function(...) {
  for (f in list(...)) {
    if (isTRUE(eval(rlang::f_lhs(f), environment(f)))) {
      return(as.numeric(eval(rlang::f_rhs(f), environment(f))))
    }
  }
  NA_real_
}
for (f in c("getAbundance.R", "getAbundanceAnomaly.R", "getInfectionRate.R", "getVectorIndex.R")) {
  source(file.path(args[1], f))
}
collections <- read.csv(file.path(args[2], "collections.csv"), na.strings = c("", "NA"))
pools <- read.csv(file.path(args[2], "pools.csv"), na.strings = c("", "NA"))

cases <- list(
  ab_week = function() getAbundance(collections, "Week"),
  ab_week_species = function() getAbundance(collections, "Week", separate_by = "species"),
  ab_biweek_trap_agency = function() getAbundance(collections, "Biweek", separate_by = c("trap", "agency")),
  ab_month_listed_species = function() getAbundance(collections, "Month",
    species = c("Cx pipiens", "Cx tarsalis", "Cs inornata"), separate_by = "species"),
  ab_date_all_sexes_one_night = function() getAbundance(collections, "CollectionDate", sex = NULL,
    trapnight_max = 1),
  ab_week_males_grvd = function() getAbundance(collections, "Week", sex = "male", trap = "GRVD",
    agency = "SAYO", trapnight_min = 2),
  an_week = function() getAbundanceAnomaly(collections, "Week", target_year = 2025),
  an_biweek_species = function() getAbundanceAnomaly(collections, "Biweek", target_year = 2025,
    separate_by = "species"),
  an_month_2023_trap = function() suppressWarnings(getAbundanceAnomaly(collections, "Month",
    target_year = 2023, separate_by = "trap")),
  an_date = function() getAbundanceAnomaly(collections, "CollectionDate", target_year = 2025),
  ir_week_bcmle = function() getInfectionRate(pools, "Week", "WNV"),
  ir_month_mle_species = function() getInfectionRate(pools, "Month", "WNV", pt_estimate = "mle",
    separate_by = "species"),
  ir_biweek_mir_trap_agency = function() getInfectionRate(pools, "Biweek", "WNV", pt_estimate = "mir",
    separate_by = c("trap", "agency")),
  ir_month_slev_all_sexes = function() getInfectionRate(pools, "Month", "SLEV", sex = NULL),
  ir_date_scale1 = function() getInfectionRate(pools, "CollectionDate", "WNV", scale = 1),
  vi_week_species = function() getVectorIndex(collections, pools, "Week", "WNV", separate_by = "species"),
  vi_month_mle = function() getVectorIndex(collections, pools, "Month", "WNV", pt_estimate = "mle")
)

# Only the spec's columns: Year, the interval, the separated labels, the figures.
figures <- c("Count", "TrapEvents", "Abundance", "FiveYearAvg", "YearsInAverage", "Delta",
             "InfectionRate", "LowerCI", "UpperCI", "VectorIndex")
separated <- list(
  ab_week_species = "Species", ab_biweek_trap_agency = c("Trap", "Agency"),
  ab_month_listed_species = "Species", an_biweek_species = "Species", an_month_2023_trap = "Trap",
  ir_month_mle_species = "Species", ir_biweek_mir_trap_agency = c("Trap", "Agency"),
  vi_week_species = "Species"
)
exact_text <- function(v) {
  if (!is.finite(v)) return(NA_character_) # NA, NaN, Inf: JSON has none of them
  for (d in 15:17) {
    t <- sprintf(paste0("%.", d, "g"), v)
    if (as.numeric(t) == v) return(t)
  }
  t
}
out <- lapply(names(cases), function(name) {
  r <- as.data.frame(cases[[name]]())
  keep <- c("Year", setdiff(names(r)[names(r) %in% c("Week", "Biweek", "Month", "CollectionDate")], "Year"),
            separated[[name]], figures)
  r <- r[, names(r) %in% keep, drop = FALSE]
  r <- r[, keep[keep %in% names(r)], drop = FALSE]
  for (n in names(r)) {
    if (inherits(r[[n]], "Date")) r[[n]] <- format(r[[n]], "%Y-%m-%d")
    # Figures as text with the fewest significant digits (15 to 17) that read back as the same
    # double, so every double survives the trip exactly (jsonlite prints 15); NA, NaN and ±Inf as null.
    else if (is.numeric(r[[n]])) r[[n]] <- vapply(r[[n]], exact_text, "")
  }
  list(columns = names(r), rows = r)
})
names(out) <- names(cases)
writeLines(toJSON(out, na = "null", dataframe = "values", pretty = FALSE), args[3])

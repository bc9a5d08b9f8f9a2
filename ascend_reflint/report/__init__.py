"""Report: formatters only format. Each takes the pipeline's values and returns or writes text."""

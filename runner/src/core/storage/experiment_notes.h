// notes.md in a run folder: the experiment's record in the seed's six sections (hypothesis,
// single intentional change, success criteria, result, interpretation, next experiment).
// `run --hypothesis/--change/--criteria` (or `--notes FILE`) gives the first three, the run
// fills the result from its verdicts, and `notes RUN --interpretation/--next` adds the last two
// once a person has looked.
#pragma once

#include <string>

namespace mlregress::internal {

struct ExperimentNotes {
  std::string hypothesis;
  std::string change;
  std::string criteria;
  std::string result;
  std::string interpretation;
  std::string next;
  bool empty() const { return hypothesis.empty() && change.empty() && criteria.empty(); }
};

/// The Markdown text: "# Experiment notes — RUN_ID", then one "## " section each; an empty
/// section says who fills it.
std::string render_notes(const ExperimentNotes& notes, const std::string& run_id);

/// Parses notes in that format (a file given to --notes, or a run's notes.md): "## Hypothesis",
/// "## Single intentional change", "## Success criteria", "## Result", "## Interpretation",
/// "## Next experiment" (case-insensitive; text before the first section and "# " titles are
/// ignored). Throws ConfigError "PATH:LINE: unknown section '...'; expected one of ...".
ExperimentNotes parse_notes(const std::string& text, const std::string& path);

/// Reads and parses a notes file; ConfigError when it cannot be read.
ExperimentNotes read_notes_file(const std::string& path);

}  // namespace mlregress::internal

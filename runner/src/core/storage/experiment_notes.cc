#include "storage/experiment_notes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

struct Section {
  const char* title;
  std::string ExperimentNotes::*field;
  const char* when_empty;
};

constexpr std::array<Section, 6> kSections = {{
    {"Hypothesis", &ExperimentNotes::hypothesis, "(not given: run --hypothesis TEXT)"},
    {"Single intentional change", &ExperimentNotes::change, "(not given: run --change TEXT)"},
    {"Success criteria", &ExperimentNotes::criteria, "(not given: run --criteria TEXT)"},
    {"Result", &ExperimentNotes::result, "(filled in when the run ends)"},
    {"Interpretation", &ExperimentNotes::interpretation,
     "(for a person: BINARY notes RUN --interpretation TEXT)"},
    {"Next experiment", &ExperimentNotes::next, "(for a person: BINARY notes RUN --next TEXT)"},
}};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\n\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\n\r") - begin + 1);
}

}  // namespace

std::string render_notes(const ExperimentNotes& notes, const std::string& run_id) {
  std::string out = fmt::format("# Experiment notes — {}\n", run_id);
  for (const Section& section : kSections) {
    const std::string text = trimmed(notes.*section.field);
    out += fmt::format("\n## {}\n\n{}\n", section.title, text.empty() ? section.when_empty : text);
  }
  return out;
}

ExperimentNotes parse_notes(const std::string& text, const std::string& path) {
  ExperimentNotes notes;
  std::istringstream in(text);
  std::string line;
  std::string* current = nullptr;
  const char* current_placeholder = "";
  int number = 0;
  const auto close = [&] {
    if (current == nullptr) return;
    *current = trimmed(*current);
    if (*current == current_placeholder) current->clear();  // a section nobody filled
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.starts_with("## ")) {
      close();
      const std::string title = lower(trimmed(line.substr(3)));
      const auto section = std::find_if(kSections.begin(), kSections.end(),
                                        [&](const Section& s) { return lower(s.title) == title; });
      if (section == kSections.end()) {
        throw ConfigError(fmt::format(
            "{}:{}: unknown section '{}'; expected one of: Hypothesis, Single intentional "
            "change, Success criteria, Result, Interpretation, Next experiment",
            path, number, trimmed(line.substr(3))));
      }
      current = &(notes.*section->field);
      current->clear();
      current_placeholder = section->when_empty;
      continue;
    }
    if (current != nullptr) *current += line + "\n";
  }
  close();
  return notes;
}

ExperimentNotes read_notes_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot read the notes file", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_notes(text.str(), path);
}

}  // namespace mlregress::internal

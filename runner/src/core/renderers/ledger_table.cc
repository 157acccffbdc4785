#include "renderers/ledger_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "record/json_number.h"
#include "record/json_text.h"

namespace mlregress::internal {
namespace {

constexpr const char* kNone = "—";

// `filter` names the test: its name, or Tier.Name.
bool is_test(const std::string& name, const std::string& filter) {
  return filter.empty() || filter == name || filter.ends_with("." + name);
}

std::optional<double> value_in(const LedgerEntry& entry, const LedgerMetricColumn& column) {
  const auto test = entry.metrics.find(column.test);
  if (test == entry.metrics.end()) return std::nullopt;
  const auto value = test->second.find(column.metric);
  if (value == test->second.end()) return std::nullopt;
  return value->second;
}

std::string tests_text(const LedgerEntry& entry) {
  if (entry.kind == "ab") return "A/B timing";
  const RunSummary summary = entry.summary.value_or(RunSummary{});
  return fmt::format("{} run, {} passed", summary.tests, summary.passed);
}

std::string or_none(const std::string& text) { return text.empty() ? kNone : text; }

// The cells of one row, in the order of the header.
std::vector<std::string> row_cells(const LedgerEntry& entry,
                                   const std::vector<LedgerMetricColumn>& columns) {
  std::vector<std::string> cells = {entry.run_id, exit_code_name(entry.exit_code),
                                    tests_text(entry), or_none(entry.criteria),
                                    or_none(ledger_decision(entry))};
  for (const LedgerMetricColumn& column : columns) {
    const std::optional<double> value = value_in(entry, column);
    cells.push_back(value ? fmt::format("{:.6g}", *value) : kNone);
  }
  cells.push_back(or_none(entry.change));
  cells.push_back(entry.hypothesis);
  return cells;
}

// Display width: "—" is one column, three bytes.
std::size_t width(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::vector<LedgerMetricColumn> ledger_metric_columns(const RunLedger& ledger,
                                                      const std::vector<std::string>& metrics,
                                                      const std::string& test) {
  std::vector<LedgerMetricColumn> columns;
  for (const std::string& metric : metrics) {
    std::set<std::string> tests;
    for (const LedgerEntry& entry : ledger.entries) {
      for (const auto& [name, values] : entry.metrics) {
        if (is_test(name, test) && values.contains(metric)) tests.insert(name);
      }
    }
    // A metric no run recorded still gets its column: every cell says there is no value.
    if (tests.empty()) tests.insert(test);
    for (const std::string& name : tests) {
      columns.push_back({name, metric, tests.size() == 1 ? metric : name + "." + metric});
    }
  }
  return columns;
}

std::string ledger_text(const RunLedger& ledger, const std::vector<LedgerMetricColumn>& columns) {
  std::vector<std::string> header = {"run", "status", "tests", "criteria", "decision"};
  for (const LedgerMetricColumn& column : columns) header.push_back(column.header);
  header.push_back("change");
  header.push_back("hypothesis");
  std::vector<std::vector<std::string>> rows = {header};
  for (const LedgerEntry& entry : ledger.entries) rows.push_back(row_cells(entry, columns));
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - width(row[i]) + 2, ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

std::string ledger_json(const RunLedger& ledger, const std::vector<LedgerMetricColumn>& columns) {
  nlohmann::json rows = nlohmann::json::array();
  for (const LedgerEntry& entry : ledger.entries) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const LedgerMetricColumn& column : columns) {
      const std::optional<double> value = value_in(entry, column);
      metrics[column.header] = value ? json_number(*value) : nlohmann::json();
    }
    const std::string decision = ledger_decision(entry);
    rows.push_back(
        {{"run_id", entry.run_id},
         {"kind", entry.kind},
         {"exit_status", exit_code_name(entry.exit_code)},
         {"criteria", entry.criteria.empty() ? nlohmann::json() : nlohmann::json(entry.criteria)},
         {"decision", decision.empty() ? nlohmann::json() : nlohmann::json(decision)},
         {"change", entry.change},
         {"hypothesis", entry.hypothesis},
         {"metrics", std::move(metrics)}});
  }
  return json_text(rows, 2) + "\n";
}

}  // namespace mlregress::internal

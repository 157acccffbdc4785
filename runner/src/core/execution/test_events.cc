#include "execution/test_events.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "record/json_number.h"
#include "record/json_text.h"
#include "storage/batch_view_file.h"
#include "storage/breakdown_json.h"
#include "storage/policy_json.h"
#include "support/overloaded.h"

namespace mlregress::internal {
namespace {

double number_at(const nlohmann::json& json, const char* key) {
  const std::optional<double> value = read_json_number(json.at(key));
  if (!value) throw std::invalid_argument(fmt::format("'{}' is not a number", key));
  return *value;
}

nlohmann::json numbers(const std::vector<double>& values) {
  nlohmann::json array = nlohmann::json::array();
  for (double v : values) array.push_back(json_number(v));
  return array;
}

// record_predictions' per-example attributes; null (NaN) for an example without a value.
std::vector<ExampleAttribute> attributes_from(const nlohmann::json& json) {
  std::vector<ExampleAttribute> attributes;
  for (const nlohmann::json& a : json) {
    ExampleAttribute attribute{a.at("name").get<std::string>(), {}};
    for (const nlohmann::json& v : a.at("values")) {
      attribute.values.push_back(read_json_number(v).value_or(std::nan("")));
    }
    attributes.push_back(std::move(attribute));
  }
  return attributes;
}

nlohmann::json predictions_json(const PredictionsRecorded& e) {
  nlohmann::json json = {{"event", "predictions"},
                         {"name", e.name},
                         {"ids", e.predictions.ids},
                         {"predicted", e.predictions.predicted},
                         {"target", e.predictions.target}};
  if (!e.predictions.attributes.empty()) {
    nlohmann::json attributes = nlohmann::json::array();
    for (const ExampleAttribute& a : e.predictions.attributes) {
      attributes.push_back({{"name", a.name}, {"values", numbers(a.values)}});
    }
    json["attributes"] = std::move(attributes);
  }
  return json;
}

PredictionsRecorded predictions_from(const nlohmann::json& json) {
  Predictions predictions;
  predictions.ids = json.at("ids").get<std::vector<std::int64_t>>();
  predictions.predicted = json.at("predicted").get<std::vector<std::int64_t>>();
  predictions.target = json.at("target").get<std::vector<std::int64_t>>();
  if (json.contains("attributes")) predictions.attributes = attributes_from(json.at("attributes"));
  return PredictionsRecorded{json.at("name").get<std::string>(), std::move(predictions)};
}

nlohmann::json end_json(const TestEnded& e) {
  return {{"event", "end"},
          {"test", e.test},
          {"passed", e.passed},
          {"skipped", e.skipped},
          {"duration_s", e.duration_s}};
}

}  // namespace

void attach_breakdown(std::vector<MetricRecord>& metrics, const BreakdownRecorded& event) {
  for (auto it = metrics.rbegin(); it != metrics.rend(); ++it) {
    if (it->name == event.metric) {
      it->breakdown = event.breakdown;
      return;
    }
  }
}

namespace {

nlohmann::json metric_event_json(const MetricRecord& metric) {
  nlohmann::json json = {{"event", "metric"},
                         {"name", metric.name},
                         {"value", json_number(metric.value)},
                         {"direction", direction_name(metric.direction)},
                         {"policy", policy_to_json(metric.policy)}};
  if (metric.target) json["target"] = target_to_json(*metric.target);
  return json;
}

MetricRecord metric_from_event_json(const nlohmann::json& json) {
  MetricRecord metric;
  metric.name = json.at("name").get<std::string>();
  metric.value = number_at(json, "value");
  const std::string direction = json.at("direction").get<std::string>();
  const std::optional<Direction> parsed = parse_direction(direction);
  if (!parsed) throw std::invalid_argument(fmt::format("unknown direction '{}'", direction));
  metric.direction = *parsed;
  metric.policy = policy_from_json(json.at("policy"));
  if (json.contains("target")) metric.target = target_from_json(json.at("target"));
  return metric;
}

}  // namespace

void to_json(nlohmann::json& json, const TestEvent& event) {
  std::visit(
      Overloaded{
          [&](const TestStarted& e) {
            json = {{"event", "start"}, {"test", e.test}, {"started_at", e.started_at}};
          },
          [&](const AssertionFailed& e) {
            json = {{"event", "failure"},
                    {"file", e.failure.file},
                    {"line", e.failure.line},
                    {"message", e.failure.message},
                    {"fatal", e.failure.fatal}};
          },
          [&](const TestSkipped& e) {
            json = {{"event", "skip"}, {"message", e.message}};
          },
          [&](const MetricRecorded& e) { json = metric_event_json(e.metric); },
          [&](const BreakdownRecorded& e) {
            json = {{"event", "breakdown"},
                    {"metric", e.metric},
                    {"breakdown", breakdown_to_json(e.breakdown)}};
          },
          [&](const CurveRecorded& e) {
            json = {{"event", "curve"},
                    {"name", e.curve.name},
                    {"steps", e.curve.steps},
                    {"values", numbers(e.curve.values)}};
            if (e.curve.policy) json["policy"] = curve_policy_to_json(*e.curve.policy);
          },
          [&](const PredictionsRecorded& e) { json = predictions_json(e); },
          [&](const DatasetRecorded& e) {
            json = {
                {"event", "dataset"}, {"name", e.name}, {"sha256", e.sha256}, {"bytes", e.bytes}};
            write_fingerprint_kind(json, e.kind);
          },
          [&](const PropertyRecorded& e) {
            json = {{"event", "property"}, {"key", e.key}, {"value", e.value}};
          },
          [&](const ConstraintDeclared& e) {
            json = {{"event", "constraint"}, {"text", e.text}};
          },
          [&](const HeldOutEvaluated& e) {
            json = {{"event", "held_out"}, {"name", e.name}, {"sha256", e.sha256}};
          },
          [&](const BatchRecorded& e) {
            json = {{"event", "batch"}, {"name", e.name}, {"batch", batch_view_to_json(e.view)}};
          },
          [&](const TestEnded& e) { json = end_json(e); },
      },
      event);
}

void from_json(const nlohmann::json& json, TestEvent& event) {
  const std::string kind = json.at("event").get<std::string>();
  if (kind == "start") {
    event = TestStarted{json.at("test").get<std::string>(), json.value("started_at", "")};
  } else if (kind == "failure") {
    event = AssertionFailed{{json.at("file").get<std::string>(), json.at("line").get<int>(),
                             json.at("message").get<std::string>(), json.at("fatal").get<bool>()}};
  } else if (kind == "skip") {
    event = TestSkipped{json.at("message").get<std::string>()};
  } else if (kind == "metric") {
    event = MetricRecorded{metric_from_event_json(json)};
  } else if (kind == "breakdown") {
    event = BreakdownRecorded{json.at("metric").get<std::string>(),
                              breakdown_from_json(json.at("breakdown"))};
  } else if (kind == "curve") {
    CurveRecord curve;
    curve.name = json.at("name").get<std::string>();
    curve.steps = json.at("steps").get<std::vector<std::int64_t>>();
    for (const nlohmann::json& v : json.at("values")) {
      const std::optional<double> value = read_json_number(v);
      if (!value) throw std::invalid_argument("a curve value is not a number");
      curve.values.push_back(*value);
    }
    if (json.contains("policy")) curve.policy = curve_policy_from_json(json.at("policy"));
    event = CurveRecorded{std::move(curve)};
  } else if (kind == "predictions") {
    event = predictions_from(json);
  } else if (kind == "dataset") {
    event =
        DatasetRecorded{json.at("name").get<std::string>(), json.at("sha256").get<std::string>(),
                        json.at("bytes").get<std::uint64_t>(),
                        fingerprint_kind(json.value("order", false), json.value("kind", ""))};
  } else if (kind == "property") {
    event =
        PropertyRecorded{json.at("key").get<std::string>(), json.at("value").get<std::string>()};
  } else if (kind == "constraint") {
    event = ConstraintDeclared{json.at("text").get<std::string>()};
  } else if (kind == "held_out") {
    event =
        HeldOutEvaluated{json.at("name").get<std::string>(), json.at("sha256").get<std::string>()};
  } else if (kind == "batch") {
    event =
        BatchRecorded{json.at("name").get<std::string>(), batch_view_from_json(json.at("batch"))};
  } else if (kind == "end") {
    event = TestEnded{json.at("test").get<std::string>(), json.at("passed").get<bool>(),
                      json.at("skipped").get<bool>(), json.at("duration_s").get<double>()};
  } else {
    throw std::invalid_argument(fmt::format("unknown event '{}'", kind));
  }
}

std::string event_line(const TestEvent& event) {
  // Invalid UTF-8 in user strings is replaced, never thrown on: an event must always get out.
  return json_text(nlohmann::json(event));
}

DecodedEvent decode_event_line(const std::string& line) {
  DecodedEvent decoded;
  const nlohmann::json json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    decoded.error = "unreadable event: " + line;
    return decoded;
  }
  try {
    decoded.event = json.get<TestEvent>();
  } catch (const std::exception& error) {
    decoded.error = fmt::format("malformed event ({}): {}", error.what(), line);
  }
  return decoded;
}

}  // namespace mlregress::internal

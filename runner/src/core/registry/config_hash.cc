#include "registry/config_hash.h"

#include <fmt/format.h>

#include "record/json_number.h"
#include "record/json_text.h"
#include "support/fnv1a.h"

namespace mlregress::internal {

nlohmann::json params_json(const ResolvedParams& params) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [key, value] : params) {
    if (const double* d = std::get_if<double>(&value)) {
      json[key] = json_number(*d);  // NaN and Inf must not all become null
    } else {
      std::visit([&, &key = key](const auto& v) { json[key] = v; }, value);
    }
  }
  return json;
}

std::map<std::string, std::string> config_values(const ResolvedParams& params) {
  std::map<std::string, std::string> values;
  const nlohmann::json json = params_json(params);  // items() must not outlive it
  for (const auto& [key, value] : json.items()) {
    values[key] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return values;
}

void add_run_settings(std::map<std::string, std::string>& values, std::uint64_t seed, int threads) {
  values.try_emplace("seed", std::to_string(seed));
  values.try_emplace("threads", std::to_string(threads));
}

std::string config_hash(const ResolvedParams& params, std::uint64_t seed, int threads) {
  const nlohmann::json canonical = {
      {"params", params_json(params)}, {"seed", seed}, {"threads", threads}};
  // --set rejects invalid UTF-8; a default in code could still have it, and hashing never throws.
  const std::uint64_t hash = fnv1a_64(json_text(canonical));
  return fmt::format("{:016x}", hash);
}

}  // namespace mlregress::internal

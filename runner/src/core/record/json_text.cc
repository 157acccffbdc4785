#include "record/json_text.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "support/errors.h"

namespace mlregress::internal {

std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw RunFolderError(fmt::format("{}: cannot be read", path));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw RunFolderError(fmt::format("{}: not valid JSON ({})", path, error.what()));
  }
}

}  // namespace mlregress::internal

// JSON as text for every file and line the runner writes. User text (a --filter, a --set value,
// a test name, a hostname) may be invalid UTF-8, which nlohmann's dump() throws on; here each
// invalid byte becomes U+FFFD instead, so a run never dies writing what it has finished.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mlregress::internal {

/// `value` as JSON text: indent -1 for one line, else pretty-printed with that indent.
std::string json_text(const nlohmann::json& value, int indent = -1);

/// A JSON file of a run folder, parsed. Throws RunFolderError naming the file when it cannot be
/// read or is not valid JSON.
nlohmann::json read_json_file(const std::string& path);

}  // namespace mlregress::internal

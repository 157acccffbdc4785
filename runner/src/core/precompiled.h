// The headers most of the core's files include, parsed once per target instead of once per file
// (nlohmann/json, fmt and GoogleTest cost 1-3 s each per file on a small machine).
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

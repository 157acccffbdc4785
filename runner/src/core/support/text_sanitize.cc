#include "support/text_sanitize.h"

#include <fmt/format.h>

#include <cstdint>

namespace mlregress::internal {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i] and its code point; 0 if invalid.
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  std::uint32_t min = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code_point = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code_point = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code_point = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if (code_point < min || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return 0;
  }
  return length;
}

// Copies `text`, replacing each byte of an invalid sequence with U+FFFD and handing every valid
// character to on_character(out, code_point, bytes), which appends what it stands for.
template <typename OnCharacter>
std::string map_characters(std::string_view text, OnCharacter on_character) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t code_point = 0;
    const std::size_t length = utf8_sequence(text, i, code_point);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    on_character(out, code_point, text.substr(i, length));
    i += length;
  }
  return out;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  return map_characters(
      text, [](std::string& out, std::uint32_t, std::string_view bytes) { out.append(bytes); });
}

std::string xml_safe(std::string_view text) {
  return map_characters(
      text, [](std::string& out, std::uint32_t code_point, std::string_view bytes) {
        const bool allowed_control = code_point == '\t' || code_point == '\n' || code_point == '\r';
        if ((code_point < 0x20 && !allowed_control) || code_point == 0x7F) {
          out += fmt::format("\\x{:02X}", code_point);
        } else if (code_point == 0xFFFE || code_point == 0xFFFF) {
          out += fmt::format("\\u{:04X}", code_point);
        } else {
          out.append(bytes);
        }
      });
}

std::string safe_file_stem(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    out += keep ? c : '_';
  }
  if (out.empty() || out.front() == '.') out.insert(out.begin(), '_');
  if (out.size() > 120) out.resize(120);
  return out;
}

std::string unique_file_name(std::string_view stem, std::string_view extension,
                             std::set<std::string>& used) {
  const std::string base = safe_file_stem(stem);
  std::string name = base + std::string(extension);
  for (int n = 2; used.count(name) != 0; ++n) {
    name = fmt::format("{}-{}{}", base, n, extension);
  }
  used.insert(name);
  return name;
}

namespace {

bool is_unreserved_in_path(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~' || c == '/';
}

}  // namespace

std::string percent_encoded(std::string_view path) {
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    out += is_unreserved_in_path(byte) ? std::string(1, c) : fmt::format("%{:02X}", byte);
  }
  return out;
}

std::string escape_markup(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : valid_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace mlregress::internal

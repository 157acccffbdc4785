// Making untrusted text (test names, messages, parameter strings) safe for each output: valid
// UTF-8 everywhere, no control characters in XML 1.0, no path tricks in file names.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace mlregress::internal {

/// Valid UTF-8: each byte of an invalid sequence becomes U+FFFD.
std::string valid_utf8(std::string_view text);

/// Text that XML 1.0 can carry: valid UTF-8, and characters XML forbids (C0 controls except
/// tab, newline and carriage return; U+FFFE, U+FFFF) written visibly as "\x01" or "\uFFFE".
/// pugixml would otherwise emit "&#1;", which no XML parser accepts.
std::string xml_safe(std::string_view text);

/// Text for HTML or XML content and attribute values: valid UTF-8, with &, <, >, " and '
/// written as entities, so a test name or message cannot become markup.
std::string escape_markup(std::string_view text);

/// A relative path for an href: every byte but [A-Za-z0-9-._~/] written as %XX, so a folder name
/// with a space, '#', '?' or '%' still links to itself (escape_markup then makes it
/// attribute-safe).
std::string percent_encoded(std::string_view path);

/// A file name made of [A-Za-z0-9._-] only, never "." or "..", never starting with '.', and at
/// most 120 bytes; anything else becomes '_'. Names that differ only in replaced characters can
/// collide, which unique_file_name resolves.
std::string safe_file_stem(std::string_view text);

/// safe_file_stem(stem) + extension, with "-2", "-3"... appended to the stem until the name is
/// not in `used`; the chosen name is added to `used`.
std::string unique_file_name(std::string_view stem, std::string_view extension,
                             std::set<std::string>& used);

}  // namespace mlregress::internal

// A decimal-comma locale for the duration of a test, to show that numbers written for machines
// (JUnit times, report values) do not follow the user's locale. The C locale is switched to a
// German or French one when one is installed; the C++ global locale always gets a ',' decimal
// point, so iostream-based formatting would be caught even on machines with only "C" installed.
#pragma once

#include <clocale>
#include <cstdio>
#include <locale>
#include <string>

namespace mlregress::test_support {

class ScopedCommaLocale {
 public:
  ScopedCommaLocale() : saved_c_(std::setlocale(LC_ALL, nullptr)) {
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8",
                             "fr_FR", "ru_RU.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8", "nl_NL.UTF-8"}) {
      if (std::setlocale(LC_ALL, name) != nullptr) {
        c_locale_name_ = name;
        break;
      }
    }
    saved_cxx_ = std::locale::global(std::locale(std::locale::classic(), new CommaNumpunct));
  }
  ~ScopedCommaLocale() {
    std::locale::global(saved_cxx_);
    std::setlocale(LC_ALL, saved_c_.c_str());
  }
  ScopedCommaLocale(const ScopedCommaLocale&) = delete;
  ScopedCommaLocale& operator=(const ScopedCommaLocale&) = delete;

  /// The comma locale installed for printf and friends; empty when none is installed here.
  const std::string& c_locale_name() const { return c_locale_name_; }

  /// How printf writes 1.5 right now ("1,500" under a comma C locale).
  static std::string printf_one_and_a_half() {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", 1.5);
    return buffer;
  }

 private:
  struct CommaNumpunct : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
  };

  std::string saved_c_;
  std::locale saved_cxx_;
  std::string c_locale_name_;
};

}  // namespace mlregress::test_support

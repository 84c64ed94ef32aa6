// The log reader's prefilter: the first place any format's chosen literal starts, checked
// against a plain search on random text made of the literals' own bytes.
#include "readers/anchor_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace runtop {
namespace {

// The first start at or after `from` of any of the chosen literals, by brute force.
std::size_t naive(const std::string& text, std::size_t from,
                  const std::vector<std::string_view>& needles) {
    std::size_t best = text.size();
    for (std::string_view n : needles) {
        const std::size_t at = text.find(n, from);
        if (at != std::string::npos) best = std::min(best, at);
    }
    return best;
}

TEST(AnchorScan, FindsTheFirstOfManyLiterals) {
    // Literals whose rarest bytes sit at different places in them, some sharing one.
    const std::vector<std::string_view> chosen = {
        "{ Epoch:[", "| global_step: ", " iteration ", ", skipped=", ": loss ", "{'", "ab", "x"};
    std::vector<std::vector<std::string_view>> formats;
    for (std::string_view literal : chosen) formats.push_back({literal});
    AnchorScan scan(formats);
    std::mt19937 random(7);
    const std::string alphabet = "{ Epoch:[|global_step=,skip'abx\n.0123";
    for (int round = 0; round < 2000; ++round) {
        std::string text;
        const int n = static_cast<int>(random() % 200);
        for (int i = 0; i < n; ++i) {
            if (random() % 10 == 0) {
                text += chosen[random() % chosen.size()];
            } else {
                text += alphabet[random() % alphabet.size()];
            }
        }
        for (std::size_t from = 0; from <= text.size(); from += 1 + random() % 7)
            ASSERT_EQ(scan.find(text.data(), from, text.size()), naive(text, from, chosen))
                << "text '" << text << "' from " << from;
    }
}

// Of a format's literals, the one cheapest to look for stands for it: a lone '|' is rare but
// makes every line with a bar a candidate; " iteration " is found by a rarer-than-letters byte
// and is rarely whole elsewhere.
TEST(AnchorScan, AFormatIsFoundByItsCheapestLiteral) {
    AnchorScan scan(std::vector<std::vector<std::string_view>>{{"|", " iteration "}});
    const std::string text = "a | b | c iteration 5 | x";
    EXPECT_EQ(scan.find(text.data(), 0, text.size()), text.find(" iteration "));
}

TEST(AnchorScan, ALiteralMustLieWhollyInside) {
    AnchorScan scan({{"| global_step: "}});
    const std::string text = std::string(40, '.') + "| global_step: 3";
    EXPECT_EQ(scan.find(text.data(), 0, text.size()), 40u);
    EXPECT_EQ(scan.find(text.data(), 0, 50), 50u);  // cut short: not inside
    EXPECT_EQ(scan.find(text.data(), 41, text.size()), text.size());
}

TEST(AnchorScan, AFormatWithoutLiteralsMakesEveryPlaceACandidate) {
    AnchorScan scan({{"abc"}, {}});
    const std::string text = "xxxxabc";
    EXPECT_EQ(scan.find(text.data(), 2, text.size()), 2u);
}

}  // namespace
}  // namespace runtop

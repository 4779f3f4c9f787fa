// SPDX-License-Identifier: Apache-2.0
// The built-in table behind cross-runtime pairing: which aten operator a Python API entry of the genuine tool
// reaches (Functional.linear -> aten::linear, Tensor.__add__ -> aten::add), and how the arguments of both sides
// name the aten schema's arguments (positional <-> keyword, Python-only and aten-only arguments).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace msprobe::compare {

// The canonical name of an argument that is left out of pairing (a Python-only argument such as F.softmax's
// _stacklevel, or one whose encoding differs between the runtimes, such as cross_entropy's reduction).
inline constexpr std::string_view kIgnoredArgument = "-";

// How one side's call names its arguments in aten schema terms.
struct ArgumentNaming {
    std::string atenOp; // "add", "softmax", "cross_entropy_loss"
    // Per positional argument: the aten argument name, or kIgnoredArgument. A last name ending in '*' is variadic:
    // the k-th positional argument from there is "{name}.{k}" (Tensor.view(2, 3) <-> aten view(self, int[] size)).
    std::vector<std::string> positional;
    // Keyword renames (python keyword -> aten name or kIgnoredArgument); keywords not listed keep their name.
    std::vector<std::pair<std::string, std::string>> keywords;
    bool known = false; // false: names are "#k" by position (an operator the table does not describe)

    // The canonical name of positional argument k, or of keyword `key`.
    std::string positionalName(std::size_t k) const;
    std::string keywordName(std::string_view key) const;
};

// Whether an API prefix is one the Python tool writes for PyTorch APIs (Functional, Tensor, Torch, NPU, VF, ...).
bool isPythonApiPrefix(std::string_view prefix);

// The naming of a Python API entry's call ("Functional", "softmax"); atenOp empty when the API reaches no aten
// operator this table or the generic rule (Tensor.X / Torch.X -> aten X) knows.
ArgumentNaming pythonApiNaming(std::string_view prefix, std::string_view api);

// The naming of an aten operator's call as our capture writes it (non-keyword-only schema arguments positional).
ArgumentNaming atenNaming(std::string_view op);

} // namespace msprobe::compare

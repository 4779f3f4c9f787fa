// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_model.h"

#include <c10/util/SmallVector.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::capture {

// A tensor leaf of dump.json. Shared so that an async writer can fill the statistics after the entry exists.
struct TensorLeaf {
    std::string type = "torch.Tensor";
    std::string dtype;
    c10::SmallVector<std::int64_t, 6> shape; // inline: no allocation for up to 6 dimensions
    dump::StatValue max, min, mean, norm; // Missing = key not written
    std::int8_t requiresGrad = -1; // -1 absent
    std::string dataName; // empty = absent
    std::string md5; // empty = absent
    bool md5IsJson = false; // md5 holds JSON text (summary_mode xor), written as is
};

// One value of an entry body: a leaf (tensor or {"type", "value"} scalar), null, a list or a dict. Kept small
// (hundreds are built, moved and destroyed per training step): a string scalar's texts live behind a pointer,
// the other scalars' "type" follows from their kind.
struct Value {
    enum class Kind : std::uint8_t { Null, Tensor, Scalar, List, Dict, EmptyObject };
    enum class ScalarKind : std::uint8_t { Bool, Int, Float, String };
    struct Text {
        std::string typeName; // "str", "torch.device", ...
        std::string value;
    };

    Kind kind = Kind::Null;
    ScalarKind scalarKind = ScalarKind::Int;
    std::shared_ptr<TensorLeaf> tensor;
    std::int64_t i = 0;
    double f = 0;
    std::unique_ptr<Text> text; // ScalarKind::String only
    std::vector<Value> items;
    std::vector<std::string> keys; // Dict: one per item

    static Value null() { return {}; }
    // capacity: the number of items the caller is about to add (one allocation instead of a growing vector).
    static Value list(std::size_t capacity = 0) { Value v; v.kind = Kind::List; v.items.reserve(capacity); return v; }
    static Value dict(std::size_t capacity = 0)
    {
        Value v;
        v.kind = Kind::Dict;
        v.keys.reserve(capacity);
        v.items.reserve(capacity);
        return v;
    }
    static Value ofTensor(std::shared_ptr<TensorLeaf> leaf) { Value v; v.kind = Kind::Tensor; v.tensor = std::move(leaf); return v; }
    static Value ofBool(bool b) { Value v; v.kind = Kind::Scalar; v.scalarKind = ScalarKind::Bool; v.i = b; return v; }
    static Value ofInt(std::int64_t x) { Value v; v.kind = Kind::Scalar; v.scalarKind = ScalarKind::Int; v.i = x; return v; }
    static Value ofFloat(double x) { Value v; v.kind = Kind::Scalar; v.scalarKind = ScalarKind::Float; v.f = x; return v; }
    static Value ofString(std::string type, std::string value)
    {
        Value v;
        v.kind = Kind::Scalar;
        v.scalarKind = ScalarKind::String;
        v.text = std::make_unique<Text>(Text { std::move(type), std::move(value) });
        return v;
    }
    // The scalar leaf's "type": "bool", "int", "float", or a string scalar's own.
    std::string_view typeName() const
    {
        switch (scalarKind) {
        case ScalarKind::Bool: return "bool";
        case ScalarKind::Int: return "int";
        case ScalarKind::Float: return "float";
        case ScalarKind::String: return text ? std::string_view(text->typeName) : std::string_view();
        }
        return {};
    }
    void add(Value v) { items.push_back(std::move(v)); }
    void add(std::string key, Value v) { keys.push_back(std::move(key)); items.push_back(std::move(v)); }
};

// Appends the JSON text of a value (Python json.dump style: NaN/Infinity tokens, indent of one space per level).
void appendJson(std::string& out, const Value& value, int indent);
void appendJsonString(std::string& out, std::string_view text);
void appendJsonNumber(std::string& out, double value);
void appendStat(std::string& out, const dump::StatValue& value);

} // namespace msprobe::capture

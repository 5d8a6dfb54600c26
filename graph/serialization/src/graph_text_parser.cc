// graph/serialization/src/graph_text_parser.cc
//
// ParseGraphText (graph_text.h): the text form's lexer and parser.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/graph_text.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "graph/serialization/src/graph_text_syntax.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using namespace graph_text_internal;  // NOLINT(build/namespaces): the shared lexical helpers

// ================================================================= lexer

enum class Tok { kEnd, kIdent, kInt, kFloat, kString, kBytes, kB64, kRef, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier / number spelling, decoded string, ref name, punctuation
  int line = 1;
  int col = 1;
};

std::string Where(int line, int col) { return absl::StrCat("line ", line, ", column ", col, ": "); }

class Lexer {
 public:
  explicit Lexer(absl::string_view s) : s_(s) {}

  Status Run(std::vector<Token>* out) {
    while (true) {
      SkipSpace();
      Token t;
      t.line = line_;
      t.col = col_;
      if (i_ >= s_.size()) {
        out->push_back(t);
        return OkStatus();
      }
      const char c = s_[i_];
      if (c == '%') {
        Advance();
        t.kind = Tok::kRef;
        if (i_ < s_.size() && s_[i_] == '"') {
          RETURN_IF_ERROR(String(&t.text));
        } else {
          const size_t b = i_;
          while (i_ < s_.size() && IsBareChar(s_[i_])) Advance();
          if (i_ == b) return Err(t, "expected a node name after '%'");
          t.text = std::string(s_.substr(b, i_ - b));
        }
      } else if (c == '"') {
        t.kind = Tok::kString;
        RETURN_IF_ERROR(String(&t.text));
      } else if (c == 'b' && Peek(1) == '"') {
        Advance();
        t.kind = Tok::kBytes;
        RETURN_IF_ERROR(String(&t.text));
      } else if (c == 'b' && Peek(1) == '6' && Peek(2) == '4' && Peek(3) == '"') {
        Advance();
        Advance();
        Advance();
        t.kind = Tok::kB64;
        RETURN_IF_ERROR(String(&t.text));
      } else if (IsBareStart(c)) {
        const size_t b = i_;
        while (i_ < s_.size() && IsBareChar(s_[i_])) Advance();
        t.kind = Tok::kIdent;
        t.text = std::string(s_.substr(b, i_ - b));
      } else if (absl::ascii_isdigit(c) || (c == '-' && absl::ascii_isdigit(Peek(1)))) {
        const size_t b = i_;
        bool is_float = false;
        Advance();
        while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        if (i_ < s_.size() && s_[i_] == '.') {
          is_float = true;
          Advance();
          while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
          is_float = true;
          Advance();
          if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) Advance();
          if (i_ >= s_.size() || !absl::ascii_isdigit(s_[i_])) return Err(t, "malformed number");
          while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        }
        t.kind = is_float ? Tok::kFloat : Tok::kInt;
        t.text = std::string(s_.substr(b, i_ - b));
      } else if (c == '-' && s_.substr(i_, 4) == "-inf") {
        for (int k = 0; k < 4; ++k) Advance();
        t.kind = Tok::kFloat;
        t.text = "-inf";
      } else if (c == '-' && Peek(1) == '>') {
        Advance();
        Advance();
        t.kind = Tok::kPunct;
        t.text = "->";
      } else if (std::strchr("=()[]{}<>,:?*^", c) != nullptr) {
        Advance();
        t.kind = Tok::kPunct;
        t.text = std::string(1, c);
      } else {
        return Err(t, absl::StrCat("unexpected character ", Quote(absl::string_view(&s_[i_], 1))));
      }
      out->push_back(std::move(t));
    }
  }

 private:
  char Peek(size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void SkipSpace() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') Advance();
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        Advance();
      } else {
        return;
      }
    }
  }
  static Status Err(const Token& t, absl::string_view msg) {
    return ParseFailed(Where(t.line, t.col), msg);
  }
  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  // At the opening quote.
  Status String(std::string* out) {
    Token start;
    start.line = line_;
    start.col = col_;
    Advance();
    while (true) {
      if (i_ >= s_.size() || s_[i_] == '\n') return Err(start, "unterminated string");
      const char c = s_[i_];
      if (c == '"') {
        Advance();
        return OkStatus();
      }
      if (c != '\\') {
        out->push_back(c);
        Advance();
        continue;
      }
      Token esc;
      esc.line = line_;
      esc.col = col_;
      Advance();
      if (i_ >= s_.size()) return Err(start, "unterminated string");
      const char e = s_[i_];
      Advance();
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'x': {
          const int h = HexDigit(Peek(0));
          const int l = HexDigit(Peek(1));
          if (h < 0 || l < 0) return Err(esc, "\\x needs two hex digits");
          Advance();
          Advance();
          out->push_back(static_cast<char>(h * 16 + l));
          break;
        }
        default:
          return Err(esc, absl::StrCat("unknown escape \\", std::string(1, e)));
      }
    }
  }

  absl::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  int col_ = 1;
};

// ================================================================ parser

struct Pos {
  int line = 1;
  int col = 1;
};

struct NameRef {
  std::string name;
  Pos pos;
};

struct InputAst {
  bool connected = false;
  NameRef src;
  int32_t index = 0;  // output index; -1: the control output
};

struct UseAst {
  NameRef node;
  int32_t input = -1;  // -1: the control input
};

struct OrderAst {
  int32_t output = 0;
  Pos pos;
  std::vector<UseAst> uses;
};

struct NodeAst {
  OpDescPtr op;
  NameRef name;
  bool has_id = false;
  int64_t id = 0;
  int64_t out_anchors = -1;
  std::vector<InputAst> inputs;
  std::vector<InputAst> controls;  // index -1: control, >= 0: data -> control
  std::vector<OrderAst> orders;
};

struct GraphAst {
  NameRef name;
  uint32_t id = 0;
  AttrStore attrs;
  std::vector<NodeAst> nodes;
  bool has_inputs = false;
  std::vector<NameRef> inputs;
  bool has_outputs = false;
  std::vector<std::pair<NameRef, int32_t>> outputs;
  // Subgraph blocks only.
  bool has_alias = false;
  std::string alias;
  bool has_parent = false;
  NameRef parent_node;
  NameRef parent_graph;
};

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  StatusOr<ComputeGraphPtr> File() {
    ASSIGN_OR_RETURN(ComputeGraphPtr g, Tree());
    if (Cur().kind != Tok::kEnd)
      return Err(Cur(), absl::StrCat("expected end of input, got ", Show(Cur())));
    return g;
  }

 private:
  const Token& Cur() const { return t_[p_]; }
  const Token& Next() {
    const Token& t = t_[p_];
    if (t.kind != Tok::kEnd) ++p_;
    return t;
  }
  bool IsPunct(absl::string_view s) const { return Cur().kind == Tok::kPunct && Cur().text == s; }
  bool IsIdent(absl::string_view s) const { return Cur().kind == Tok::kIdent && Cur().text == s; }
  static Pos PosOf(const Token& t) { return {t.line, t.col}; }
  static Status Err(const Token& t, absl::string_view msg) {
    return ParseFailed(Where(t.line, t.col), msg);
  }
  static Status ErrAt(const Pos& p, absl::string_view msg) {
    return ParseFailed(Where(p.line, p.col), msg);
  }
  static std::string Show(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd:
        return "end of input";
      case Tok::kString:
        return absl::StrCat("string ", Quote(t.text));
      case Tok::kRef:
        return absl::StrCat("'", Ref(t.text), "'");
      default:
        return absl::StrCat("'", t.text, "'");
    }
  }
  Status Expect(absl::string_view punct) {
    if (!IsPunct(punct))
      return Err(Cur(), absl::StrCat("expected '", punct, "', got ", Show(Cur())));
    Next();
    return OkStatus();
  }
  Status ExpectIdent(absl::string_view word) {
    if (!IsIdent(word)) return Err(Cur(), absl::StrCat("expected '", word, "', got ", Show(Cur())));
    Next();
    return OkStatus();
  }
  StatusOr<std::string> NameTok(const char* what) {
    if (Cur().kind == Tok::kIdent || Cur().kind == Tok::kString) return Next().text;
    return Err(Cur(), absl::StrCat("expected ", what, ", got ", Show(Cur())));
  }
  StatusOr<std::string> StringTok(const char* what) {
    if (Cur().kind == Tok::kString) return Next().text;
    return Err(Cur(), absl::StrCat("expected ", what, " (a string), got ", Show(Cur())));
  }
  StatusOr<NameRef> RefTok() {
    if (Cur().kind != Tok::kRef)
      return Err(Cur(), absl::StrCat("expected a node reference, got ", Show(Cur())));
    NameRef r{Cur().text, PosOf(Cur())};
    Next();
    return r;
  }
  StatusOr<int64_t> IntTok(const char* what) {
    if (Cur().kind != Tok::kInt)
      return Err(Cur(), absl::StrCat("expected ", what, " (an integer), got ", Show(Cur())));
    int64_t v;
    if (!absl::SimpleAtoi(Cur().text, &v))
      return Err(Cur(), absl::StrCat("integer out of range: ", Cur().text));
    Next();
    return v;
  }
  StatusOr<int32_t> Int32Tok(const char* what) {
    const Token& t = Cur();
    ASSIGN_OR_RETURN(int64_t v, IntTok(what));
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return Err(t, absl::StrCat(what, " out of range: ", v));
    }
    return static_cast<int32_t>(v);
  }
  StatusOr<bool> BoolTok() {
    if (IsIdent("true") || IsIdent("false")) return Next().text == "true";
    return Err(Cur(), absl::StrCat("expected true or false, got ", Show(Cur())));
  }
  Status Enter() {
    if (++depth_ > kMaxDepth) return Err(Cur(), absl::StrCat("nesting deeper than ", kMaxDepth));
    return OkStatus();
  }

  // ---------------------------------------------------------- graph trees

  StatusOr<ComputeGraphPtr> Tree() {
    RETURN_IF_ERROR(Enter());
    std::vector<GraphAst> graphs;
    RETURN_IF_ERROR(ExpectIdent("graph"));
    graphs.emplace_back();
    RETURN_IF_ERROR(Block(&graphs.back(), false));
    while (IsIdent("subgraph")) {
      Next();
      graphs.emplace_back();
      RETURN_IF_ERROR(Block(&graphs.back(), true));
    }
    ASSIGN_OR_RETURN(ComputeGraphPtr root, Build(graphs));
    --depth_;
    return root;
  }

  Status Block(GraphAst* g, bool sub) {
    g->name.pos = PosOf(Cur());
    ASSIGN_OR_RETURN(g->name.name, NameTok("a graph name"));
    if (sub && IsIdent("as")) {
      Next();
      g->has_alias = true;
      ASSIGN_OR_RETURN(g->alias, StringTok("a registered name"));
    }
    if (sub && IsIdent("parent")) {
      Next();
      g->has_parent = true;
      ASSIGN_OR_RETURN(g->parent_node, RefTok());
      RETURN_IF_ERROR(ExpectIdent("in"));
      g->parent_graph.pos = PosOf(Cur());
      ASSIGN_OR_RETURN(g->parent_graph.name, NameTok("a graph name"));
    }
    RETURN_IF_ERROR(Expect("{"));
    while (!IsPunct("}")) {
      if (Cur().kind == Tok::kRef) {
        g->nodes.emplace_back();
        RETURN_IF_ERROR(NodeStmt(&g->nodes.back()));
      } else if (IsIdent("id")) {
        Next();
        RETURN_IF_ERROR(Expect("="));
        const Token& t = Cur();
        ASSIGN_OR_RETURN(int64_t id, IntTok("a graph id"));
        if (id < 0 || id > std::numeric_limits<uint32_t>::max())
          return Err(t, "graph id out of range");
        g->id = static_cast<uint32_t>(id);
      } else if (IsIdent("attrs")) {
        Next();
        RETURN_IF_ERROR(Dict(&g->attrs));
      } else if (IsIdent("inputs")) {
        Next();
        g->has_inputs = true;
        RETURN_IF_ERROR(Expect("("));
        while (!IsPunct(")")) {
          if (!g->inputs.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(NameRef r, RefTok());
          g->inputs.push_back(std::move(r));
        }
        Next();
      } else if (IsIdent("outputs")) {
        Next();
        g->has_outputs = true;
        RETURN_IF_ERROR(Expect("("));
        while (!IsPunct(")")) {
          if (!g->outputs.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(NameRef r, RefTok());
          RETURN_IF_ERROR(Expect(":"));
          ASSIGN_OR_RETURN(int32_t idx, Int32Tok("an output index"));
          g->outputs.emplace_back(std::move(r), idx);
        }
        Next();
      } else {
        return Err(Cur(),
                   absl::StrCat("expected a node, 'id', 'attrs', 'inputs', 'outputs' or '}', got ",
                                Show(Cur())));
      }
    }
    Next();
    return OkStatus();
  }

  // ref [":" int]
  StatusOr<InputAst> Source(bool index_required) {
    InputAst in;
    in.connected = true;
    ASSIGN_OR_RETURN(in.src, RefTok());
    in.index = -1;
    if (index_required || IsPunct(":")) {
      RETURN_IF_ERROR(Expect(":"));
      ASSIGN_OR_RETURN(in.index, Int32Tok("an output index"));
      if (in.index < -1) return ErrAt(in.src.pos, "output index must be >= -1");
    }
    return in;
  }

  Status NodeStmt(NodeAst* n) {
    ASSIGN_OR_RETURN(n->name, RefTok());
    RETURN_IF_ERROR(Expect("="));
    ASSIGN_OR_RETURN(std::string type, NameTok("an op type"));
    n->op = OpDesc::Create(n->name.name, type);
    RETURN_IF_ERROR(Expect("("));
    while (!IsPunct(")")) {
      if (!n->inputs.empty() || !n->controls.empty()) RETURN_IF_ERROR(Expect(","));
      if (IsPunct("^")) {
        Next();
        ASSIGN_OR_RETURN(InputAst c, Source(false));
        n->controls.push_back(std::move(c));
      } else if (!n->controls.empty()) {
        return Err(Cur(), "data inputs must come before control inputs ('^')");
      } else if (IsIdent("_")) {
        Next();
        n->inputs.emplace_back();
      } else {
        ASSIGN_OR_RETURN(InputAst in, Source(true));
        n->inputs.push_back(std::move(in));
      }
    }
    Next();
    if (IsPunct("<")) RETURN_IF_ERROR(Props(n));
    if (IsPunct("{")) RETURN_IF_ERROR(Dict(&n->op->MutableAttrStore()));
    RETURN_IF_ERROR(Expect(":"));
    RETURN_IF_ERROR(Ports(n->op.get(), true));
    RETURN_IF_ERROR(Expect("->"));
    RETURN_IF_ERROR(Ports(n->op.get(), false));
    if (IsIdent("order")) {
      Next();
      RETURN_IF_ERROR(Expect("("));
      while (!IsPunct(")")) {
        if (!n->orders.empty()) RETURN_IF_ERROR(Expect(","));
        OrderAst o;
        o.pos = PosOf(Cur());
        ASSIGN_OR_RETURN(o.output, Int32Tok("an output index"));
        RETURN_IF_ERROR(Expect("="));
        RETURN_IF_ERROR(Expect("["));
        while (!IsPunct("]")) {
          if (!o.uses.empty()) RETURN_IF_ERROR(Expect(","));
          UseAst u;
          if (IsPunct("^")) {
            Next();
            ASSIGN_OR_RETURN(u.node, RefTok());
          } else {
            ASSIGN_OR_RETURN(u.node, RefTok());
            RETURN_IF_ERROR(Expect(":"));
            ASSIGN_OR_RETURN(u.input, Int32Tok("an input index"));
            if (u.input < 0) return ErrAt(u.node.pos, "input index must be >= 0");
          }
          o.uses.push_back(std::move(u));
        }
        Next();
        n->orders.push_back(std::move(o));
      }
      Next();
    }
    return OkStatus();
  }

  Status Ports(OpDesc* op, bool inputs) {
    RETURN_IF_ERROR(Expect("("));
    uint32_t i = 0;
    while (!IsPunct(")")) {
      if (i > 0) RETURN_IF_ERROR(Expect(","));
      std::string name = absl::StrCat(inputs ? "__input" : "__output", i);
      bool optional = false;
      const Token& at = Cur();
      const bool named =
          (Cur().kind == Tok::kString) ||
          (Cur().kind == Tok::kIdent && p_ + 1 < t_.size() && t_[p_ + 1].kind == Tok::kPunct &&
           (t_[p_ + 1].text == ":" || t_[p_ + 1].text == "?"));
      if (named) {
        name = Next().text;
        if (IsPunct("?")) {
          if (!inputs) return Err(Cur(), "only inputs can be optional");
          Next();
          optional = true;
        }
        RETURN_IF_ERROR(Expect(":"));
      }
      GeTensorDesc desc;
      RETURN_IF_ERROR(Type(&desc));
      Status st = !inputs    ? op->AddOutputDesc(name, desc)
                  : optional ? op->AddOptionalInputDesc(name, desc)
                             : op->AddInputDesc(name, desc);
      if (!st.ok()) return Err(at, st.message());
      ++i;
    }
    Next();
    return OkStatus();
  }

  // ---------------------------------------------------------------- props

  StatusOr<std::vector<int64_t>> IntList() {
    RETURN_IF_ERROR(Expect("["));
    std::vector<int64_t> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(int64_t x, IntTok("a list element"));
      v.push_back(x);
    }
    Next();
    return v;
  }
  StatusOr<std::vector<std::string>> StringList() {
    RETURN_IF_ERROR(Expect("["));
    std::vector<std::string> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(std::string x, StringTok("a list element"));
      v.push_back(std::move(x));
    }
    Next();
    return v;
  }
  // ["name" [suffix], ...]; suffix: 0 none, 1 '?', 2 '*'.
  StatusOr<std::vector<std::pair<std::string, int>>> KindList(bool allow_optional) {
    RETURN_IF_ERROR(Expect("["));
    std::vector<std::pair<std::string, int>> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(std::string x, StringTok("a name"));
      int kind = 0;
      if (allow_optional && IsPunct("?")) {
        Next();
        kind = 1;
      } else if (IsPunct("*")) {
        Next();
        kind = 2;
      }
      v.emplace_back(std::move(x), kind);
    }
    Next();
    return v;
  }

  Status Props(NodeAst* n) {
    OpDesc& op = *n->op;
    Next();  // '<'
    std::set<std::string> seen;
    while (!IsPunct(">")) {
      if (!seen.empty()) RETURN_IF_ERROR(Expect(","));
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("a property name"));
      if (!seen.insert(key).second)
        return Err(key_tok, absl::StrCat("duplicate property '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      if (key == "id") {
        n->has_id = true;
        ASSIGN_OR_RETURN(n->id, IntTok("an op id"));
      } else if (key == "stream") {
        ASSIGN_OR_RETURN(int64_t s, IntTok("a stream id"));
        op.SetStreamId(s);
      } else if (key == "out_anchors") {
        ASSIGN_OR_RETURN(n->out_anchors, IntTok("an anchor count"));
        if (n->out_anchors < 0 || n->out_anchors > Anchor::kMaxIdx)
          return Err(key_tok, "bad anchor count");
      } else if (key == "input_offsets") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetInputOffset(v);
      } else if (key == "output_offsets") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetOutputOffset(v);
      } else if (key == "workspace") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetWorkspace(v);
      } else if (key == "workspace_bytes") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetWorkspaceBytes(v);
      } else if (key == "engine") {
        ASSIGN_OR_RETURN(std::string s, StringTok("an engine name"));
        op.SetOpEngineName(s);
      } else if (key == "kernel_lib") {
        ASSIGN_OR_RETURN(std::string s, StringTok("a kernel lib name"));
        op.SetOpKernelLibName(s);
      } else if (key == "src_names") {
        ASSIGN_OR_RETURN(auto v, StringList());
        op.SetSrcName(v);
      } else if (key == "src_indices") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetSrcIndex(v);
      } else if (key == "dst_names") {
        ASSIGN_OR_RETURN(auto v, StringList());
        op.SetDstName(v);
      } else if (key == "dst_indices") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetDstIndex(v);
      } else if (key == "is_input_const") {
        RETURN_IF_ERROR(Expect("["));
        std::vector<bool> v;
        while (!IsPunct("]")) {
          if (!v.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(bool b, BoolTok());
          v.push_back(b);
        }
        Next();
        op.SetIsInputConst(v);
      } else if (key == "ir_inputs") {
        ASSIGN_OR_RETURN(auto v, KindList(true));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(Wrap(key_tok, op.AppendIrInput(name, k == 1   ? kIrInputOptional
                                                               : k == 2 ? kIrInputDynamic
                                                                        : kIrInputRequired)));
        }
      } else if (key == "ir_outputs") {
        ASSIGN_OR_RETURN(auto v, KindList(false));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(Wrap(
              key_tok, op.AppendIrOutput(name, k == 2 ? kIrOutputDynamic : kIrOutputRequired)));
        }
      } else if (key == "ir_attrs") {
        ASSIGN_OR_RETURN(auto v, StringList());
        for (const std::string& s : v) RETURN_IF_ERROR(Wrap(key_tok, op.AppendIrAttrName(s)));
      } else if (key == "ir_subgraphs") {
        ASSIGN_OR_RETURN(auto v, KindList(false));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(
              Wrap(key_tok, op.RegisterSubgraphIrName(name, k == 2 ? kDynamic : kStatic)));
        }
      } else if (key == "subgraphs") {
        RETURN_IF_ERROR(Expect("["));
        uint32_t i = 0;
        while (!IsPunct("]")) {
          if (i > 0) RETURN_IF_ERROR(Expect(","));
          const Token& at = Cur();
          ASSIGN_OR_RETURN(std::string first, StringTok("a subgraph instance name"));
          if (IsPunct(":")) {
            Next();
            ASSIGN_OR_RETURN(std::string inst, StringTok("a subgraph instance name"));
            RETURN_IF_ERROR(Wrap(at, op.AddSubgraphName(first)));
            RETURN_IF_ERROR(Wrap(at, op.SetSubgraphInstanceName(i, inst)));
          } else {
            op.AddSubgraphInstanceName(first);
          }
          ++i;
        }
        Next();
      } else {
        return Err(key_tok, absl::StrCat("unknown property '", key, "'"));
      }
    }
    Next();
    return OkStatus();
  }

  static Status Wrap(const Token& at, const Status& st) {
    return st.ok() ? st : Err(at, st.message());
  }

  // ---------------------------------------------------------------- types

  StatusOr<Format> FormatTok() {
    const Token& at = Cur();
    if (Cur().kind == Tok::kInt) {
      ASSIGN_OR_RETURN(int64_t v, IntTok("a format"));
      StatusOr<Format> f = GeTensorSerializeUtils::CheckedFormat(v);
      if (!f.ok()) return Err(at, f.status().message());
      return *f;
    }
    std::string layout = Next().text;
    // Packed formats: NAME[:SUB][:C0_<n>].
    while (IsPunct(":") && p_ + 1 < t_.size() &&
           (t_[p_ + 1].kind == Tok::kInt || t_[p_ + 1].kind == Tok::kIdent)) {
      Next();
      absl::StrAppend(&layout, ":", Next().text);
    }
    StatusOr<Format> f = GeTensorSerializeUtils::LayoutToFormat(layout);
    if (!f.ok()) return Err(at, absl::StrCat("unknown format '", layout, "'"));
    return *f;
  }

  StatusOr<DataType> DtypeTok() {
    const Token& at = Cur();
    if (Cur().kind != Tok::kIdent)
      return Err(at, absl::StrCat("expected a data type, got ", Show(at)));
    const std::string name = Next().text;
    if (name != absl::AsciiStrToLower(name))
      return Err(at, absl::StrCat("unknown data type '", name, "'"));
    StatusOr<DataType> dt = TypeUtils::SerialStringToDataType(absl::AsciiStrToUpper(name));
    if (!dt.ok() || DtypeName(*dt) != name)
      return Err(at, absl::StrCat("unknown data type '", name, "'"));
    return *dt;
  }

  StatusOr<GeShape> DimsTok() {
    ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntList());
    return GeShape(dims);
  }

  StatusOr<GeTensorDesc::ShapeRange> RangeTok() {
    RETURN_IF_ERROR(Expect("["));
    GeTensorDesc::ShapeRange r;
    while (!IsPunct("]")) {
      if (!r.empty()) RETURN_IF_ERROR(Expect(","));
      RETURN_IF_ERROR(Expect("["));
      ASSIGN_OR_RETURN(int64_t lo, IntTok("a range minimum"));
      RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(int64_t hi, IntTok("a range maximum"));
      RETURN_IF_ERROR(Expect("]"));
      r.emplace_back(lo, hi);
    }
    Next();
    return r;
  }

  // A (possibly stale) range, through a temporary shape of unknown dims.
  static Status SetRange(GeTensorDesc* d, bool origin, GeTensorDesc::ShapeRange range) {
    Status st = origin ? d->SetOriginShapeRange(range) : d->SetShapeRange(range);
    if (st.ok()) return st;
    const GeShape current = origin ? d->GetOriginShape() : d->GetShape();
    const GeShape temp(std::vector<int64_t>(range.size(), UNKNOWN_DIM));
    if (origin) {
      d->SetOriginShape(temp);
    } else {
      d->SetShape(temp);
    }
    st = origin ? d->SetOriginShapeRange(std::move(range)) : d->SetShapeRange(std::move(range));
    if (origin) {
      d->SetOriginShape(current);
    } else {
      d->SetShape(current);
    }
    return st;
  }

  Status Type(GeTensorDesc* out) {
    ASSIGN_OR_RETURN(DataType dt, DtypeTok());
    ASSIGN_OR_RETURN(GeShape shape, DimsTok());
    Format fmt = FORMAT_ND;
    if (Cur().kind == Tok::kIdent || Cur().kind == Tok::kInt) {
      ASSIGN_OR_RETURN(fmt, FormatTok());
    }
    *out = GeTensorDesc(shape, fmt, dt);
    GeTensorDesc& d = *out;
    if (!IsPunct("{")) return OkStatus();
    Next();
    std::set<std::string> seen;
    bool has_origin_shape = false, has_range = false, has_origin_range = false;
    GeShape origin_shape;
    GeTensorDesc::ShapeRange range, origin_range;
    Pos range_pos, origin_range_pos;
    while (!IsPunct("}")) {
      if (!seen.empty()) RETURN_IF_ERROR(Expect(","));
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("a tensor desc field"));
      if (!seen.insert(key).second)
        return Err(key_tok, absl::StrCat("duplicate field '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      if (key == "origin_shape") {
        has_origin_shape = true;
        ASSIGN_OR_RETURN(origin_shape, DimsTok());
      } else if (key == "origin_dtype") {
        ASSIGN_OR_RETURN(DataType odt, DtypeTok());
        d.SetOriginDataType(odt);
      } else if (key == "origin_format") {
        ASSIGN_OR_RETURN(Format of, FormatTok());
        d.SetOriginFormat(of);
      } else if (key == "name") {
        ASSIGN_OR_RETURN(std::string s, StringTok("a tensor name"));
        d.SetName(s);
      } else if (key == "range") {
        has_range = true;
        range_pos = PosOf(key_tok);
        ASSIGN_OR_RETURN(range, RangeTok());
      } else if (key == "origin_range") {
        has_origin_range = true;
        origin_range_pos = PosOf(key_tok);
        ASSIGN_OR_RETURN(origin_range, RangeTok());
      } else if (key == "real_dim_cnt") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a dim count"));
        d.SetRealDimCnt(v);
      } else if (key == "size") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a size"));
        d.SetSizeMeta(v);
      } else if (key == "weight_size") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a size"));
        d.SetWeightSize(v);
      } else if (key == "reuse_input") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetReuseInput(b);
      } else if (key == "reuse_input_index") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an index"));
        d.SetReuseInputIndex(v);
      } else if (key == "data_offset") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an offset"));
        d.SetDataOffset(v);
      } else if (key == "device") {
        if (IsIdent("CPU")) {
          d.SetDeviceType(DeviceType::kCpu);
        } else if (!IsIdent("NPU")) {
          return Err(Cur(), absl::StrCat("expected NPU or CPU, got ", Show(Cur())));
        }
        Next();
      } else if (key == "input_tensor") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetInputTensor(b);
      } else if (key == "output_tensor") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetOutputTensor(b);
      } else if (key == "attrs") {
        RETURN_IF_ERROR(Dict(&d.MutableAttrStore()));
      } else {
        return Err(key_tok, absl::StrCat("unknown tensor desc field '", key, "'"));
      }
    }
    Next();
    if (has_range) {
      Status st = SetRange(&d, false, std::move(range));
      if (!st.ok()) return ErrAt(range_pos, st.message());
    }
    if (has_origin_shape) d.SetOriginShape(origin_shape);
    if (has_origin_range) {
      Status st = SetRange(&d, true, std::move(origin_range));
      if (!st.ok()) return ErrAt(origin_range_pos, st.message());
    }
    return OkStatus();
  }

  // ---------------------------------------------------------------- values

  Status Dict(AttrStore* store) {
    RETURN_IF_ERROR(Enter());
    RETURN_IF_ERROR(Expect("{"));
    bool first = true;
    while (!IsPunct("}")) {
      if (!first) RETURN_IF_ERROR(Expect(","));
      first = false;
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("an attribute name"));
      if (key.empty()) return Err(key_tok, "attribute names must not be empty");
      if (store->Has(key)) return Err(key_tok, absl::StrCat("duplicate attribute '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      ASSIGN_OR_RETURN(AttrValue v, Value());
      RETURN_IF_ERROR(Wrap(key_tok, store->Set(key, std::move(v))));
    }
    Next();
    --depth_;
    return OkStatus();
  }

  StatusOr<float> FloatOf(const Token& t) {
    if (t.kind == Tok::kInt || t.kind == Tok::kFloat) {
      if (t.text == "-inf") return -std::numeric_limits<float>::infinity();
      char* end = nullptr;
      const float f = std::strtof(t.text.c_str(), &end);
      if (end == nullptr || *end != '\0') return Err(t, absl::StrCat("malformed number ", t.text));
      return f;
    }
    return Err(t, absl::StrCat("expected a number, got ", Show(t)));
  }

  // A float literal at Cur(): number, inf, -inf, nan [ "(" bits ")" ].
  StatusOr<float> FloatTok() {
    if (IsIdent("inf")) {
      Next();
      return std::numeric_limits<float>::infinity();
    }
    if (IsIdent("nan")) {
      Next();
      uint32_t bits = 0x7fc00000u;
      if (IsPunct("(")) {
        Next();
        const Token& at = Cur();
        ASSIGN_OR_RETURN(int64_t b, IntTok("NaN bits"));
        if (b < 0 || b > 0xffffffffLL) return Err(at, "NaN bits out of range");
        bits = static_cast<uint32_t>(b);
        RETURN_IF_ERROR(Expect(")"));
      }
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      return f;
    }
    const Token& t = Cur();
    ASSIGN_OR_RETURN(float f, FloatOf(t));
    Next();
    return f;
  }

  bool AtFloatLiteral() const {
    return Cur().kind == Tok::kFloat || IsIdent("inf") || IsIdent("nan");
  }

  // A literal element of a tensor of `dt` appended to `bytes`.
  Status Element(DataType dt, std::string* bytes) {
    const Token& t = Cur();
    auto put = [bytes](const void* p, size_t n) { bytes->append(static_cast<const char*>(p), n); };
    auto int_in = [&](int64_t lo, int64_t hi) -> StatusOr<int64_t> {
      ASSIGN_OR_RETURN(int64_t v, IntTok("a tensor element"));
      if (v < lo || v > hi)
        return Err(t, absl::StrCat("element ", v, " out of range for ", DtypeName(dt)));
      return v;
    };
    switch (dt) {
      case DT_FLOAT: {
        ASSIGN_OR_RETURN(float f, FloatTok());
        put(&f, 4);
        return OkStatus();
      }
      case DT_DOUBLE: {
        double d;
        if (IsIdent("inf")) {
          Next();
          d = std::numeric_limits<double>::infinity();
        } else if (Cur().kind == Tok::kFloat || Cur().kind == Tok::kInt) {
          d = Cur().text == "-inf" ? -std::numeric_limits<double>::infinity()
                                   : std::strtod(Cur().text.c_str(), nullptr);
          Next();
        } else {
          return Err(t, absl::StrCat("expected a number, got ", Show(t)));
        }
        put(&d, 8);
        return OkStatus();
      }
      case DT_UINT64: {
        uint64_t v;
        if (Cur().kind != Tok::kInt || !absl::SimpleAtoi(Cur().text, &v)) {
          return Err(t, absl::StrCat("expected a uint64 element, got ", Show(t)));
        }
        Next();
        put(&v, 8);
        return OkStatus();
      }
      case DT_INT64: {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a tensor element"));
        put(&v, 8);
        return OkStatus();
      }
      case DT_INT32: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT32_MIN, INT32_MAX));
        const int32_t x = static_cast<int32_t>(v);
        put(&x, 4);
        return OkStatus();
      }
      case DT_UINT32: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT32_MAX));
        const uint32_t x = static_cast<uint32_t>(v);
        put(&x, 4);
        return OkStatus();
      }
      case DT_INT16: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT16_MIN, INT16_MAX));
        const int16_t x = static_cast<int16_t>(v);
        put(&x, 2);
        return OkStatus();
      }
      case DT_UINT16: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT16_MAX));
        const uint16_t x = static_cast<uint16_t>(v);
        put(&x, 2);
        return OkStatus();
      }
      case DT_INT8: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT8_MIN, INT8_MAX));
        const int8_t x = static_cast<int8_t>(v);
        put(&x, 1);
        return OkStatus();
      }
      case DT_UINT8: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT8_MAX));
        const uint8_t x = static_cast<uint8_t>(v);
        put(&x, 1);
        return OkStatus();
      }
      case DT_BOOL: {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        const uint8_t x = b ? 1 : 0;
        put(&x, 1);
        return OkStatus();
      }
      default:
        return Err(t, absl::StrCat("tensors of ", DtypeName(dt),
                                   " take base64 data (b64\"...\"), not values"));
    }
  }

  StatusOr<GeTensor> TensorValue() {
    Next();  // tensor
    RETURN_IF_ERROR(Expect("("));
    GeTensorDesc desc;
    RETURN_IF_ERROR(Type(&desc));
    GeTensor t(desc);
    if (IsPunct(",")) {
      Next();
      if (Cur().kind == Tok::kB64) {
        std::string bytes;
        if (!absl::Base64Unescape(Cur().text, &bytes)) return Err(Cur(), "malformed base64 data");
        Next();
        t.SetData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      } else {
        const Token at = Cur();
        RETURN_IF_ERROR(Expect("["));
        std::string bytes;
        int64_t count = 0;
        while (!IsPunct("]")) {
          if (count > 0) RETURN_IF_ERROR(Expect(","));
          RETURN_IF_ERROR(Element(desc.GetDataType(), &bytes));
          ++count;
        }
        Next();
        StatusOr<int64_t> expect = desc.GetShape().GetShapeSize();
        if (!expect.ok() || desc.GetShape().IsUnknownShape() || *expect != count) {
          return Err(at, absl::StrCat("tensor of shape ", desc.GetShape().ToString(), " has ",
                                      count, " values"));
        }
        t.SetData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      }
    }
    RETURN_IF_ERROR(Expect(")"));
    return t;
  }

  StatusOr<NamedAttrs> NamedValue() {
    Next();  // named
    RETURN_IF_ERROR(Expect("("));
    ASSIGN_OR_RETURN(std::string name, StringTok("a name"));
    RETURN_IF_ERROR(Expect(","));
    NamedAttrs n(name);
    RETURN_IF_ERROR(Dict(&n.MutableAttrStore()));
    RETURN_IF_ERROR(Expect(")"));
    return n;
  }

  StatusOr<GeTensorDesc> DescValue() {
    Next();  // desc
    RETURN_IF_ERROR(Expect("("));
    GeTensorDesc d;
    RETURN_IF_ERROR(Type(&d));
    RETURN_IF_ERROR(Expect(")"));
    return d;
  }

  StatusOr<ComputeGraphPtr> GraphValue() {
    if (IsIdent("null")) {
      Next();
      return ComputeGraphPtr();
    }
    return Tree();
  }

  StatusOr<AttrValue> Value() {
    RETURN_IF_ERROR(Enter());
    ASSIGN_OR_RETURN(AttrValue v, ValueInner());
    --depth_;
    return v;
  }

  StatusOr<AttrValue> ValueInner() {
    const Token& t = Cur();
    switch (t.kind) {
      case Tok::kInt: {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an integer"));
        return AttrValue::CreateFrom<int64_t>(v);
      }
      case Tok::kFloat: {
        ASSIGN_OR_RETURN(float f, FloatTok());
        return AttrValue::CreateFrom<float>(f);
      }
      case Tok::kString:
        return AttrValue::CreateFrom<std::string>(Next().text);
      case Tok::kBytes: {
        const std::string& s = Next().text;
        return AttrValue::CreateFrom<AttrValue::Bytes>(AttrValue::Bytes(s.begin(), s.end()));
      }
      case Tok::kPunct:
        if (t.text == "[") return ListValue(AttrValue::VT_NONE);
        break;
      case Tok::kIdent: {
        const std::string& w = t.text;
        if (w == "true" || w == "false") return AttrValue::CreateFrom<bool>(Next().text == "true");
        if (w == "inf" || w == "nan") {
          ASSIGN_OR_RETURN(float f, FloatTok());
          return AttrValue::CreateFrom<float>(f);
        }
        if (w == "none") {
          Next();
          return AttrValue();
        }
        if (w == "desc") {
          ASSIGN_OR_RETURN(GeTensorDesc d, DescValue());
          return AttrValue::CreateFrom<GeTensorDesc>(std::move(d));
        }
        if (w == "tensor") {
          ASSIGN_OR_RETURN(GeTensor x, TensorValue());
          return AttrValue::CreateFrom<GeTensor>(std::move(x));
        }
        if (w == "named") {
          ASSIGN_OR_RETURN(NamedAttrs n, NamedValue());
          return AttrValue::CreateFrom<NamedAttrs>(std::move(n));
        }
        if (w == "graph" || w == "null") {
          ASSIGN_OR_RETURN(ComputeGraphPtr g, GraphValue());
          return AttrValue::CreateFrom<ComputeGraphPtr>(std::move(g));
        }
        if (absl::StartsWith(w, "DT_") || w == "UNDEFINED_DT") {
          StatusOr<DataType> dt = TypeUtils::SerialStringToDataType(w);
          if (!dt.ok() || TypeUtils::DataTypeToSerialString(*dt) != w) {
            return Err(t, absl::StrCat("unknown data type '", w, "'"));
          }
          Next();
          return AttrValue::CreateFrom<DataType>(*dt);
        }
        if (absl::StartsWith(w, "list_")) {
          const AttrValue::ValueType type = ListTypeOf(w);
          if (type == AttrValue::VT_NONE)
            return Err(t, absl::StrCat("unknown list type '", w, "'"));
          Next();
          if (!IsPunct("[")) return Err(Cur(), absl::StrCat("expected '[' after ", w));
          return ListValue(type);
        }
        return Err(t, absl::StrCat("unknown value '", w, "'"));
      }
      default:
        break;
    }
    return Err(t, absl::StrCat("expected a value, got ", Show(t)));
  }

  static AttrValue::ValueType ListTypeOf(absl::string_view w) {
    for (int32_t v : {10, 12, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1011}) {
      const auto type = static_cast<AttrValue::ValueType>(v);
      if (AttrValue::ValueTypeName(type) == w) return type;
    }
    return AttrValue::VT_NONE;
  }

  // The list element kind a token starts.
  AttrValue::ValueType ElementTypeAtCur() const {
    const Token& t = Cur();
    switch (t.kind) {
      case Tok::kInt:
        return AttrValue::VT_INT;
      case Tok::kFloat:
        return AttrValue::VT_FLOAT;
      case Tok::kString:
        return AttrValue::VT_STRING;
      case Tok::kBytes:
        return AttrValue::VT_BYTES;
      case Tok::kIdent:
        if (t.text == "true" || t.text == "false") return AttrValue::VT_BOOL;
        if (t.text == "inf" || t.text == "nan") return AttrValue::VT_FLOAT;
        if (t.text == "desc") return AttrValue::VT_TENSOR_DESC;
        if (t.text == "tensor") return AttrValue::VT_TENSOR;
        if (t.text == "named") return AttrValue::VT_NAMED_ATTRS;
        if (t.text == "graph" || t.text == "null") return AttrValue::VT_GRAPH;
        if (absl::StartsWith(t.text, "DT_")) return AttrValue::VT_DATA_TYPE;
        return AttrValue::VT_NONE;
      default:
        return AttrValue::VT_NONE;
    }
  }

  // A list of `type` (VT_NONE: inferred from the elements). At '['.
  StatusOr<AttrValue> ListValue(AttrValue::ValueType type) {
    const Token start = Cur();
    Next();  // '['
    if (type == AttrValue::VT_NONE) {
      if (IsPunct("]")) return Err(start, "an empty list needs its type, e.g. list_int[]");
      if (IsPunct("[")) {
        // A list of lists: floats if any element is one.
        size_t q = p_;
        int depth = 0;
        type = AttrValue::VT_LIST_LIST_INT;
        for (; q < t_.size() && t_[q].kind != Tok::kEnd; ++q) {
          if (t_[q].kind == Tok::kPunct && t_[q].text == "[") ++depth;
          if (t_[q].kind == Tok::kPunct && t_[q].text == "]" && --depth < 0) break;
          if (t_[q].kind == Tok::kFloat ||
              (t_[q].kind == Tok::kIdent && (t_[q].text == "inf" || t_[q].text == "nan"))) {
            type = AttrValue::VT_LIST_LIST_FLOAT;
          }
        }
      } else {
        const AttrValue::ValueType elem = ElementTypeAtCur();
        if (elem == AttrValue::VT_NONE)
          return Err(Cur(), absl::StrCat("expected a list element, got ", Show(Cur())));
        type = static_cast<AttrValue::ValueType>(AttrValue::VT_LIST_BASE + elem);
        if (elem == AttrValue::VT_INT) {
          // [1, 2.5]: floats if any element is one.
          for (size_t q = p_; q < t_.size() && !(t_[q].kind == Tok::kPunct && t_[q].text == "]");
               ++q) {
            if (t_[q].kind == Tok::kFloat ||
                (t_[q].kind == Tok::kIdent && (t_[q].text == "inf" || t_[q].text == "nan"))) {
              type = AttrValue::VT_LIST_FLOAT;
            }
          }
        }
      }
    }
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<bool> bools;
    std::vector<std::string> strings;
    std::vector<DataType> dtypes;
    std::vector<GeTensorDesc> descs;
    std::vector<GeTensor> tensors;
    std::vector<AttrValue::Bytes> bytes;
    std::vector<ComputeGraphPtr> graphs;
    std::vector<NamedAttrs> nameds;
    std::vector<std::vector<int64_t>> int_lists;
    std::vector<std::vector<float>> float_lists;
    size_t n = 0;
    while (!IsPunct("]")) {
      if (n++ > 0) RETURN_IF_ERROR(Expect(","));
      const Token& at = Cur();
      auto mismatch = [&]() {
        return Err(at, absl::StrCat("expected an element of ", AttrValue::ValueTypeName(type),
                                    ", got ", Show(at)));
      };
      switch (type) {
        case AttrValue::VT_LIST_INT: {
          if (at.kind != Tok::kInt) return mismatch();
          ASSIGN_OR_RETURN(int64_t v, IntTok("a list element"));
          ints.push_back(v);
          break;
        }
        case AttrValue::VT_LIST_FLOAT: {
          if (at.kind != Tok::kInt && !AtFloatLiteral()) return mismatch();
          ASSIGN_OR_RETURN(float f, FloatTok());
          floats.push_back(f);
          break;
        }
        case AttrValue::VT_LIST_BOOL: {
          ASSIGN_OR_RETURN(bool b, BoolTok());
          bools.push_back(b);
          break;
        }
        case AttrValue::VT_LIST_STRING: {
          if (at.kind != Tok::kString) return mismatch();
          strings.push_back(Next().text);
          break;
        }
        case AttrValue::VT_LIST_BYTES: {
          if (at.kind != Tok::kBytes) return mismatch();
          const std::string& s = Next().text;
          bytes.emplace_back(s.begin(), s.end());
          break;
        }
        case AttrValue::VT_LIST_DATA_TYPE: {
          if (ElementTypeAtCur() != AttrValue::VT_DATA_TYPE && !IsIdent("UNDEFINED_DT"))
            return mismatch();
          ASSIGN_OR_RETURN(AttrValue v, ValueInner());
          dtypes.push_back(*v.Get<DataType>());
          break;
        }
        case AttrValue::VT_LIST_TENSOR_DESC: {
          if (!IsIdent("desc")) return mismatch();
          ASSIGN_OR_RETURN(GeTensorDesc d, DescValue());
          descs.push_back(std::move(d));
          break;
        }
        case AttrValue::VT_LIST_TENSOR: {
          if (!IsIdent("tensor")) return mismatch();
          ASSIGN_OR_RETURN(GeTensor x, TensorValue());
          tensors.push_back(std::move(x));
          break;
        }
        case AttrValue::VT_LIST_GRAPH: {
          if (!IsIdent("graph") && !IsIdent("null")) return mismatch();
          ASSIGN_OR_RETURN(ComputeGraphPtr g, GraphValue());
          graphs.push_back(std::move(g));
          break;
        }
        case AttrValue::VT_LIST_NAMED_ATTRS: {
          if (!IsIdent("named")) return mismatch();
          ASSIGN_OR_RETURN(NamedAttrs x, NamedValue());
          nameds.push_back(std::move(x));
          break;
        }
        case AttrValue::VT_LIST_LIST_INT:
        case AttrValue::VT_LIST_LIST_FLOAT: {
          if (!IsPunct("[")) return mismatch();
          RETURN_IF_ERROR(Enter());
          Next();
          std::vector<int64_t> li;
          std::vector<float> lf;
          while (!IsPunct("]")) {
            if (!li.empty() || !lf.empty()) RETURN_IF_ERROR(Expect(","));
            if (type == AttrValue::VT_LIST_LIST_INT) {
              ASSIGN_OR_RETURN(int64_t v, IntTok("a list element"));
              li.push_back(v);
            } else {
              ASSIGN_OR_RETURN(float f, FloatTok());
              lf.push_back(f);
            }
          }
          Next();
          --depth_;
          if (type == AttrValue::VT_LIST_LIST_INT) {
            int_lists.push_back(std::move(li));
          } else {
            float_lists.push_back(std::move(lf));
          }
          break;
        }
        default:
          return Err(start, "unsupported list type");
      }
    }
    Next();  // ']'
    switch (type) {
      case AttrValue::VT_LIST_INT:
        return AttrValue::CreateFrom(std::move(ints));
      case AttrValue::VT_LIST_FLOAT:
        return AttrValue::CreateFrom(std::move(floats));
      case AttrValue::VT_LIST_BOOL:
        return AttrValue::CreateFrom(std::move(bools));
      case AttrValue::VT_LIST_STRING:
        return AttrValue::CreateFrom(std::move(strings));
      case AttrValue::VT_LIST_DATA_TYPE:
        return AttrValue::CreateFrom(std::move(dtypes));
      case AttrValue::VT_LIST_TENSOR_DESC:
        return AttrValue::CreateFrom(std::move(descs));
      case AttrValue::VT_LIST_TENSOR:
        return AttrValue::CreateFrom(std::move(tensors));
      case AttrValue::VT_LIST_BYTES:
        return AttrValue::CreateFrom(std::move(bytes));
      case AttrValue::VT_LIST_GRAPH:
        return AttrValue::CreateFrom(std::move(graphs));
      case AttrValue::VT_LIST_NAMED_ATTRS:
        return AttrValue::CreateFrom(std::move(nameds));
      case AttrValue::VT_LIST_LIST_INT:
        return AttrValue::CreateFrom(std::move(int_lists));
      default:
        return AttrValue::CreateFrom(std::move(float_lists));
    }
  }

  // ---------------------------------------------------------------- build

  struct Built {
    ComputeGraphPtr graph;
    std::map<std::string, NodePtr> nodes;
  };

  static StatusOr<NodePtr> Lookup(const Built& b, const NameRef& r) {
    auto it = b.nodes.find(r.name);
    if (it == b.nodes.end()) {
      return ErrAt(r.pos, absl::StrCat("unknown node ", Ref(r.name), " in graph '",
                                       b.graph->GetName(), "'"));
    }
    return it->second;
  }

  struct Edge {
    Anchor* from;
    Anchor* to;
  };

  StatusOr<ComputeGraphPtr> Build(std::vector<GraphAst>& graphs) {
    std::vector<Built> built(graphs.size());
    std::map<std::string, size_t> by_name;
    for (size_t gi = 0; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      if (!by_name.emplace(ga.name.name, gi).second) {
        return ErrAt(ga.name.pos, absl::StrCat("duplicate graph name '", ga.name.name, "'"));
      }
      RETURN_IF_ERROR(BuildGraph(ga, &built[gi]));
    }
    const ComputeGraphPtr& root = built[0].graph;
    for (size_t gi = 1; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      if (!ga.has_parent) continue;
      auto it = by_name.find(ga.parent_graph.name);
      if (it == by_name.end()) {
        return ErrAt(ga.parent_graph.pos,
                     absl::StrCat("unknown graph '", ga.parent_graph.name, "'"));
      }
      ASSIGN_OR_RETURN(NodePtr parent, Lookup(built[it->second], ga.parent_node));
      built[gi].graph->SetParentGraph(built[it->second].graph);
      built[gi].graph->SetParentNode(parent);
    }
    for (size_t gi = 1; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      const ComputeGraphPtr& sg = built[gi].graph;
      Status st;
      if (ga.has_parent) {
        st = root->AddSubgraph(ga.has_alias ? ga.alias : ga.name.name, sg);
      } else if (ga.has_alias && ga.alias != ga.name.name) {
        st = NotSupported("a subgraph without a parent is registered under its own name");
      } else {
        st = root->AddSubGraph(sg);
      }
      if (!st.ok()) return ErrAt(ga.name.pos, st.message());
    }
    return root;
  }

  Status BuildGraph(GraphAst& ga, Built* b) {
    b->graph = std::make_shared<ComputeGraph>(ga.name.name);
    ComputeGraph& g = *b->graph;
    g.SetGraphID(ga.id);
    g.MutableAttrStore() = std::move(ga.attrs);
    std::vector<NodePtr> nodes;
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      NodeAst& na = ga.nodes[i];
      if (b->nodes.count(na.name.name) != 0) {
        return ErrAt(na.name.pos, absl::StrCat("duplicate node name ", Ref(na.name.name)));
      }
      StatusOr<NodePtr> node = g.AddNode(na.op, na.has_id ? na.id : static_cast<int64_t>(i));
      if (!node.ok()) return ErrAt(na.name.pos, node.status().message());
      Node& n = **node;
      const size_t want_in = na.inputs.size();
      const size_t have_in = n.GetAllInDataAnchorsSize();
      Status st = want_in > have_in   ? n.AppendInDataAnchors(want_in - have_in)
                  : want_in < have_in ? n.RemoveInDataAnchors(have_in - want_in)
                                      : OkStatus();
      if (st.ok() && na.out_anchors >= 0) {
        const size_t want = static_cast<size_t>(na.out_anchors);
        const size_t have = n.GetAllOutDataAnchorsSize();
        st = want > have   ? n.AppendOutDataAnchors(want - have)
             : want < have ? n.RemoveOutDataAnchors(have - want)
                           : OkStatus();
      }
      if (!st.ok()) return ErrAt(na.name.pos, st.message());
      b->nodes.emplace(na.name.name, *node);
      nodes.push_back(*node);
    }
    RETURN_IF_ERROR(LinkEdges(ga, *b, nodes));
    RETURN_IF_ERROR(CheckCycles(ga, nodes));
    if (ga.has_inputs) {
      for (const NodePtr& n : std::vector<NodePtr>(g.GetInputNodes())) {
        RETURN_IF_ERROR(g.RemoveInputNode(n));
      }
      std::set<std::string> seen;
      for (const NameRef& r : ga.inputs) {
        if (!seen.insert(r.name).second)
          return ErrAt(r.pos, absl::StrCat("duplicate input ", Ref(r.name)));
        ASSIGN_OR_RETURN(NodePtr n, Lookup(*b, r));
        RETURN_IF_ERROR(g.AddInputNode(n));
      }
    }
    std::vector<std::pair<NodePtr, int32_t>> outs;
    for (const auto& [r, idx] : ga.outputs) {
      ASSIGN_OR_RETURN(NodePtr n, Lookup(*b, r));
      if (idx < 0 || static_cast<size_t>(idx) >= n->GetAllOutDataAnchorsSize()) {
        return ErrAt(r.pos, absl::StrCat("node ", Ref(r.name), " has no output ", idx));
      }
      outs.emplace_back(n, idx);
    }
    g.SetGraphOutNodesInfo(outs);
    return OkStatus();
  }

  static StatusOr<Anchor*> SourceAnchor(const Built& b, const InputAst& in) {
    ASSIGN_OR_RETURN(NodePtr src, Lookup(b, in.src));
    if (in.index == -1) return static_cast<Anchor*>(src->GetOutControlAnchorBarePtr());
    if (static_cast<size_t>(in.index) >= src->GetAllOutDataAnchorsSize()) {
      return ErrAt(in.src.pos, absl::StrCat("node ", Ref(in.src.name), " has no output ", in.index,
                                            " (it has ", src->GetAllOutDataAnchorsSize(), ")"));
    }
    return static_cast<Anchor*>(src->GetOutDataAnchorBarePtr(in.index));
  }

  // Links every edge: in canonical order (consumers in list order, data
  // inputs, then control inputs), or, when a node records the order of an
  // output's consumers, in an order that gives every out anchor its
  // recorded order and every in-control anchor its listed order.
  Status LinkEdges(const GraphAst& ga, const Built& b, const std::vector<NodePtr>& nodes) {
    std::vector<Edge> edges;
    std::vector<Pos> where;
    bool any_order = false;
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      const NodeAst& na = ga.nodes[i];
      Node& n = *nodes[i];
      any_order = any_order || !na.orders.empty();
      for (size_t k = 0; k < na.inputs.size(); ++k) {
        if (!na.inputs[k].connected) continue;
        ASSIGN_OR_RETURN(Anchor * from, SourceAnchor(b, na.inputs[k]));
        edges.push_back({from, n.GetInDataAnchorBarePtr(static_cast<int32_t>(k))});
        where.push_back(na.inputs[k].src.pos);
      }
      std::set<Anchor*> seen;
      for (const InputAst& c : na.controls) {
        ASSIGN_OR_RETURN(Anchor * from, SourceAnchor(b, c));
        if (!seen.insert(from).second) {
          return ErrAt(c.src.pos, absl::StrCat("duplicate control input ", Ref(c.src.name)));
        }
        edges.push_back({from, n.GetInControlAnchorBarePtr()});
        where.push_back(c.src.pos);
      }
    }
    std::vector<size_t> order(edges.size());
    for (size_t e = 0; e < edges.size(); ++e) order[e] = e;
    if (any_order) RETURN_IF_ERROR(OrderEdges(ga, b, nodes, edges, &order));
    for (size_t e : order) {
      Status st = edges[e].from->LinkWith(edges[e].to);
      if (!st.ok()) return ErrAt(where[e], st.message());
    }
    return OkStatus();
  }

  Status OrderEdges(const GraphAst& ga, const Built& b, const std::vector<NodePtr>& nodes,
                    const std::vector<Edge>& edges, std::vector<size_t>* order) {
    // Chains: per out anchor (recorded or canonical order), per in-control
    // anchor (listed order).
    std::map<const Anchor*, std::vector<size_t>> by_from, by_to;
    for (size_t e = 0; e < edges.size(); ++e) {
      by_from[edges[e].from].push_back(e);
      if (edges[e].to->IsInControl()) by_to[edges[e].to].push_back(e);
    }
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      for (const OrderAst& o : ga.nodes[i].orders) {
        const Node& n = *nodes[i];
        const Anchor* from = nullptr;
        if (o.output == -1) {
          from = n.GetOutControlAnchorBarePtr();
        } else if (o.output >= 0 && static_cast<size_t>(o.output) < n.GetAllOutDataAnchorsSize()) {
          from = n.GetOutDataAnchorBarePtr(o.output);
        } else {
          return ErrAt(o.pos, absl::StrCat("node ", Ref(n.GetName()), " has no output ", o.output));
        }
        std::vector<size_t>& chain = by_from[from];
        std::vector<size_t> recorded;
        for (const UseAst& u : o.uses) {
          ASSIGN_OR_RETURN(NodePtr c, Lookup(b, u.node));
          const Anchor* to = u.input < 0
                                 ? static_cast<const Anchor*>(c->GetInControlAnchorBarePtr())
                                 : c->GetInDataAnchorBarePtr(u.input);
          auto it =
              std::find_if(chain.begin(), chain.end(), [&](size_t e) { return edges[e].to == to; });
          if (to == nullptr || it == chain.end() ||
              std::find(recorded.begin(), recorded.end(), *it) != recorded.end()) {
            return ErrAt(u.node.pos,
                         absl::StrCat("order of ", Ref(n.GetName()), " output ", o.output, ": ",
                                      Ref(u.node.name), " is not one of its consumers"));
          }
          recorded.push_back(*it);
        }
        if (recorded.size() != chain.size()) {
          return ErrAt(o.pos,
                       absl::StrCat("order of ", Ref(n.GetName()), " output ", o.output, " lists ",
                                    recorded.size(), " of its ", chain.size(), " consumers"));
        }
        chain = std::move(recorded);
      }
    }
    std::vector<int> indegree(edges.size(), 0);
    std::vector<std::vector<size_t>> next(edges.size());
    auto chain_edges = [&](const std::map<const Anchor*, std::vector<size_t>>& chains) {
      for (const auto& [a, chain] : chains) {
        for (size_t k = 1; k < chain.size(); ++k) {
          next[chain[k - 1]].push_back(chain[k]);
          ++indegree[chain[k]];
        }
      }
    };
    chain_edges(by_from);
    chain_edges(by_to);
    std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
    for (size_t e = 0; e < edges.size(); ++e) {
      if (indegree[e] == 0) ready.push(e);
    }
    order->clear();
    std::vector<bool> done(edges.size(), false);
    while (!ready.empty()) {
      const size_t e = ready.top();
      ready.pop();
      order->push_back(e);
      done[e] = true;
      for (size_t s : next[e]) {
        if (--indegree[s] == 0) ready.push(s);
      }
    }
    // Orders that contradict each other: the rest canonically.
    for (size_t e = 0; e < edges.size(); ++e) {
      if (!done[e]) order->push_back(e);
    }
    return OkStatus();
  }

  static Status CheckCycles(const GraphAst& ga, const std::vector<NodePtr>& nodes) {
    std::map<const Node*, size_t> index;
    for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i].get()] = i;
    std::vector<std::vector<size_t>> preds(nodes.size());
    std::vector<size_t> pending(nodes.size(), 0);
    std::vector<std::vector<size_t>> succs(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      auto add = [&](const Anchor* peer) {
        auto it = index.find(peer->GetOwnerNodeBarePtr());
        if (it == index.end()) return;
        preds[i].push_back(it->second);
        succs[it->second].push_back(i);
        ++pending[i];
      };
      for (size_t k = 0; k < nodes[i]->GetAllInDataAnchorsSize(); ++k) {
        for (const Anchor* p :
             nodes[i]->GetInDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors())
          add(p);
      }
      for (const Anchor* p : nodes[i]->InControlPeers()) add(p);
    }
    std::vector<size_t> stack;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (pending[i] == 0) stack.push_back(i);
    }
    size_t visited = 0;
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      ++visited;
      for (size_t s : succs[i]) {
        if (--pending[s] == 0) stack.push_back(s);
      }
    }
    if (visited == nodes.size()) return OkStatus();
    // Walk back through unfinished predecessors until a node repeats.
    size_t start = 0;
    while (pending[start] == 0) ++start;
    std::vector<size_t> path;
    std::map<size_t, size_t> at;
    size_t cur = start;
    while (at.count(cur) == 0) {
      at[cur] = path.size();
      path.push_back(cur);
      for (size_t p : preds[cur]) {
        if (pending[p] != 0) {
          cur = p;
          break;
        }
      }
    }
    std::vector<std::string> names;
    for (size_t k = path.size(); k-- > at[cur];) names.push_back(nodes[path[k]]->GetName());
    names.push_back(nodes[path.back()]->GetName());
    return ErrAt(
        ga.nodes[cur].name.pos,
        absl::StrCat("graph '", ga.name.name, "' has a cycle: ", absl::StrJoin(names, " -> ")));
  }

  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;
};

}  // namespace

StatusOr<ComputeGraphPtr> ParseGraphText(absl::string_view text) {
  std::vector<Token> tokens;
  RETURN_IF_ERROR(Lexer(text).Run(&tokens));
  return Parser(std::move(tokens)).File();
}

}  // namespace ge

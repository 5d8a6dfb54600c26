// graph/serialization/testing/bad_input_corpus.cc
#include "graph/serialization/testing/bad_input_corpus.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/serialization/inc/model_serialize_proto.h"

namespace ge {
namespace testing {
namespace {

proto::TensorDescriptor Desc(std::vector<int64_t> dims) {
  proto::TensorDescriptor d;
  d.set_dtype(proto::DT_FLOAT);
  for (int64_t x : dims) d.mutable_shape()->add_dim(x);
  d.set_layout("ND");
  d.set_origin_layout("ND");
  d.set_origin_dtype(proto::DT_FLOAT);
  return d;
}

// Appends an attribute entry (the wire form of a map entry).
proto::AttrDef& Attr(google::protobuf::RepeatedPtrField<proto::AttrEntry>* attrs,
                     const std::string& key) {
  proto::AttrEntry* e = attrs->Add();
  e->set_key(key);
  return *e->mutable_value();
}

proto::OpDef* AddOp(proto::GraphDef* g, const std::string& name, const std::string& type, int n_in,
                    int n_out) {
  proto::OpDef* op = g->add_op();
  op->set_name(name);
  op->set_type(type);
  op->set_id(g->op_size() - 1);
  for (int i = 0; i < n_in; ++i) *op->add_input_desc() = Desc({1, 2});
  for (int i = 0; i < n_out; ++i) *op->add_output_desc() = Desc({1, 2});
  return op;
}

proto::OpDef* Op(proto::ModelDef& m, int graph, const std::string& name) {
  for (proto::OpDef& op : *m.mutable_graph(graph)->mutable_op()) {
    if (op.name() == name) return &op;
  }
  std::fprintf(stderr, "BadInputCorpus: no op %s\n", name.c_str());
  std::abort();
}

std::string Bytes(const google::protobuf::MessageLite& m) {
  StatusOr<std::string> b = ModelSerializeImp::ToBytes(m);
  if (!b.ok()) {
    std::fprintf(stderr, "BadInputCorpus: %s\n", b.status().ToString().c_str());
    std::abort();
  }
  return *b;
}

// An attribute holding a graph that holds ... `depth` graphs.
proto::AttrDef NestedGraphAttr(int depth) {
  proto::AttrDef attr;
  proto::GraphDef* g = attr.mutable_g();
  g->set_name("nested0");
  for (int i = 1; i < depth; ++i) {
    proto::OpDef* op = AddOp(g, "n", "Const", 0, 1);
    g = Attr(op->mutable_attr(), "inner").mutable_g();
    g->set_name(absl::StrCat("nested", i));
  }
  return attr;
}

proto::AttrDef NestedNamedAttrs(int depth) {
  proto::AttrDef attr;
  proto::NamedAttrs* na = attr.mutable_func();
  for (int i = 1; i < depth; ++i) {
    na->set_name(absl::StrCat("f", i));
    na = Attr(na->mutable_attr(), "inner").mutable_func();
  }
  return attr;
}

}  // namespace

proto::ModelDef BaseModel() {
  proto::ModelDef m;
  m.set_name("main");
  proto::GraphDef* g = m.add_graph();
  g->set_name("main");
  AddOp(g, "a", "Data", 0, 1);
  proto::OpDef* b = AddOp(g, "b", "Relu", 1, 1);
  b->add_input("a:0");
  proto::OpDef* c = AddOp(g, "c", "If", 2, 1);
  c->add_input("b:0");
  c->add_input("");
  c->add_input("a:-1");
  c->add_subgraph_name("then");
  c->add_subgraph_slot()->set_name("then_branch");
  g->add_input("a");
  g->add_output("c:0");
  proto::GraphDef* s = m.add_graph();
  s->set_name("then");
  s->set_parent_graph("main");
  s->set_parent_node("c");
  AddOp(s, "d", "Data", 0, 1);
  proto::OpDef* e = AddOp(s, "e", "NetOutput", 1, 0);
  e->add_input("d:0");
  s->add_input("d");
  return m;
}

std::vector<BadInputCase> BadInputCorpus() {
  std::vector<BadInputCase> cases;
  const std::string base_bytes = Bytes(BaseModel());
  auto raw = [&cases](std::string name, std::string bytes, ErrorCode code, std::string fragment,
                      bool checked_in) {
    BadInputCase c;
    c.name = std::move(name);
    c.bytes = std::move(bytes);
    c.code = code;
    c.fragment = std::move(fragment);
    c.checked_in = checked_in;
    cases.push_back(std::move(c));
  };
  auto mutate = [&cases](std::string name, const std::function<void(proto::ModelDef&)>& fn,
                         ErrorCode code, std::string fragment, bool checked_in = false,
                         DeserializeOptions options = {}) {
    proto::ModelDef m = BaseModel();
    fn(m);
    BadInputCase c;
    c.name = std::move(name);
    c.bytes = Bytes(m);
    c.code = code;
    c.fragment = std::move(fragment);
    c.options = options;
    c.checked_in = checked_in;
    cases.push_back(std::move(c));
  };
  using E = ErrorCode;

  // Undecodable bytes.
  raw("truncated", base_bytes.substr(0, base_bytes.size() / 2), E::kParseFailed,
      "truncated or malformed", true);
  raw("bad_tag", std::string("\xff\xff\xff\xff\x0f", 5), E::kParseFailed, "truncated or malformed",
      true);
  raw("empty_model", "", E::kGraphInvalid, "the model has no graph", false);

  // Edges.
  mutate(
      "dangling_input", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "ghost:0"); },
      E::kGraphInvalid, "node 'b' input 0 refers to missing node 'ghost'", true);
  mutate(
      "duplicate_node_name", [](proto::ModelDef& m) { Op(m, 0, "c")->set_name("b"); },
      E::kGraphInvalid, "duplicate node name 'b'", true);
  mutate(
      "output_index_out_of_range", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:5"); },
      E::kOutOfRange, "refers to output 5 of node 'a', which has 1 outputs", true);
  mutate(
      "negative_index", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:-3"); },
      E::kOutOfRange, "negative output index -3", true);
  mutate(
      "malformed_three_parts", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:b:c"); },
      E::kGraphInvalid, "malformed entry 'a:b:c'", true);
  mutate(
      "empty_node_name", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, ":0"); },
      E::kGraphInvalid, "empty node name");
  mutate(
      "no_colon", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a"); }, E::kGraphInvalid,
      "malformed entry 'a'");
  mutate(
      "index_too_long", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:99999999999"); },
      E::kGraphInvalid, "is not an index");
  mutate(
      "index_overflow", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:4294967296"); },
      E::kOutOfRange, "does not fit in int32");
  mutate(
      "index_plus_sign", [](proto::ModelDef& m) { Op(m, 0, "b")->set_input(0, "a:+0"); },
      E::kGraphInvalid, "is not an index");
  mutate(
      "cycle",
      [](proto::ModelDef& m) {
        proto::OpDef* a = Op(m, 0, "a");
        a->add_input_desc()->CopyFrom(Desc({1, 2}));
        a->add_input("c:0");
      },
      E::kGraphCycle, "has a cycle: a -> b -> c -> a", true);
  mutate(
      "self_loop", [](proto::ModelDef& m) { Op(m, 0, "b")->add_input("b:-1"); }, E::kGraphCycle,
      "has a cycle: b -> b");
  mutate(
      "missing_input_entries",
      [](proto::ModelDef& m) {
        Op(m, 0, "c")->mutable_input()->RemoveLast();
        Op(m, 0, "c")->mutable_input()->RemoveLast();
      },
      E::kGraphInvalid, "has 2 input anchors but only 1 input entries");
  mutate(
      "empty_control_entry", [](proto::ModelDef& m) { Op(m, 0, "c")->add_input(""); },
      E::kGraphInvalid, "empty control input entry");
  mutate(
      "duplicate_control_input", [](proto::ModelDef& m) { Op(m, 0, "c")->add_input("a:-1"); },
      E::kGraphInvalid, "lists control input 'a:-1' twice");
  mutate(
      "empty_op_name", [](proto::ModelDef& m) { Op(m, 0, "b")->set_name(""); }, E::kGraphInvalid,
      "has an empty name");

  // Tensor descriptions.
  mutate(
      "too_many_dims",
      [](proto::ModelDef& m) {
        auto* dims = Op(m, 0, "b")->mutable_input_desc(0)->mutable_shape()->mutable_dim();
        for (int i = 0; i < 2000; ++i) dims->Add(1);
      },
      E::kOutOfRange, "dims, more than the limit of 1024", true);
  mutate(
      "negative_dim",
      [](proto::ModelDef& m) {
        Op(m, 0, "b")->mutable_input_desc(0)->mutable_shape()->set_dim(1, -5);
      },
      E::kParamInvalid, "dim 1 is -5", true);
  mutate(
      "unknown_rank_not_alone",
      [](proto::ModelDef& m) {
        Op(m, 0, "b")->mutable_input_desc(0)->mutable_shape()->set_dim(0, -2);
      },
      E::kParamInvalid, "-2 must be the only dim");
  mutate(
      "invalid_dtype",
      [](proto::ModelDef& m) {
        Op(m, 0, "b")->mutable_output_desc(0)->set_dtype(static_cast<proto::DataType>(999));
      },
      E::kParseFailed, "data type 999 is not a ge.proto.DataType", true);
  mutate(
      "invalid_layout",
      [](proto::ModelDef& m) { Op(m, 0, "b")->mutable_output_desc(0)->set_layout("NOPE"); },
      E::kParseFailed, "layout 'NOPE'", true);
  mutate(
      "invalid_packed_format",
      [](proto::ModelDef& m) {
        proto::TensorDescriptor* d = Op(m, 0, "b")->mutable_output_desc(0);
        d->clear_layout();
        d->set_format(0x7ffffff0);
      },
      E::kParseFailed, "is not a valid packed format");
  mutate(
      "range_count_mismatch",
      [](proto::ModelDef& m) {
        proto::ShapeRange* r = Op(m, 0, "b")->mutable_input_desc(0)->mutable_shape_range();
        r->add_min(1);
        r->add_min(1);
        r->add_max(2);
      },
      E::kParseFailed, "2 min values but 1 max values");
  mutate(
      "range_max_below_min",
      [](proto::ModelDef& m) {
        proto::TensorDescriptor* d = Op(m, 0, "b")->mutable_input_desc(0);
        d->mutable_shape()->set_dim(0, -1);
        d->mutable_shape()->set_dim(1, -1);
        proto::ShapeRange* r = d->mutable_shape_range();
        r->add_min(1);
        r->add_max(8);
        r->add_min(5);
        r->add_max(3);
      },
      E::kParamInvalid, "max 3 < min 5");
  mutate(
      "invalid_device_type",
      [](proto::ModelDef& m) { Op(m, 0, "b")->mutable_input_desc(0)->set_device_type("TPU"); },
      E::kParseFailed, "device type 'TPU' is neither NPU nor CPU");

  // Ops.
  mutate(
      "optional_input_out_of_range",
      [](proto::ModelDef& m) { Op(m, 0, "b")->add_optional_input(7); }, E::kOutOfRange,
      "optional input index 7 is out of range (1 inputs)");
  mutate(
      "input_name_count", [](proto::ModelDef& m) { Op(m, 0, "c")->add_input_name("x"); },
      E::kParseFailed, "2 input descs but 1 input names");
  mutate(
      "duplicate_input_name",
      [](proto::ModelDef& m) {
        Op(m, 0, "c")->add_input_name("x");
        Op(m, 0, "c")->add_input_name("x");
      },
      E::kAlreadyExists, "already has an input named 'x'");
  mutate(
      "subgraph_slot_out_of_range",
      [](proto::ModelDef& m) {
        proto::SubgraphSlot* slot = Op(m, 0, "c")->add_subgraph_slot();
        slot->set_name("else_branch");
        slot->set_index(4);
      },
      E::kOutOfRange, "subgraph slot 'else_branch' has index 4");
  mutate(
      "ir_input_kind",
      [](proto::ModelDef& m) {
        proto::IrIoDef* io = Op(m, 0, "b")->add_ir_input();
        io->set_name("x");
        io->set_kind(proto::IrIoDef::STATIC);
      },
      E::kParseFailed, "IR input kind 3 is not allowed");
  mutate(
      "duplicate_ir_input",
      [](proto::ModelDef& m) {
        for (int i = 0; i < 2; ++i) Op(m, 0, "b")->add_ir_input()->set_name("x");
      },
      E::kAlreadyExists, "IR input");
  mutate(
      "absurd_anchor_count", [](proto::ModelDef& m) { Op(m, 0, "b")->set_in_anchor_num(1u << 30); },
      E::kOutOfRange, "in_anchor_num 1073741824 is more than the limit", true);
  mutate(
      "output_order_wrong_size",
      [](proto::ModelDef& m) {
        proto::OutputOrder* o = Op(m, 0, "a")->add_output_order();  // a:0 feeds only b
        o->set_index(0);
        o->add_peer_rank(0);
        o->add_peer_rank(1);
      },
      E::kGraphInvalid, "order has 2 ranks but the output has 1 consumers");
  mutate(
      "output_order_bad_rank",
      [](proto::ModelDef& m) {
        Op(m, 0, "c")->set_input(1, "a:0");  // a:0 now feeds b and c
        proto::OutputOrder* o = Op(m, 0, "a")->add_output_order();
        o->set_index(0);
        o->add_peer_rank(1);
        o->add_peer_rank(1);
      },
      E::kGraphInvalid, "order is not a permutation of 0..1");
  mutate(
      "output_order_missing_output",
      [](proto::ModelDef& m) { Op(m, 0, "a")->add_output_order()->set_index(3); }, E::kOutOfRange,
      "output order for output 3, which does not exist");

  // Attributes.
  mutate(
      "graph_nesting_too_deep",
      [](proto::ModelDef& m) { Attr(Op(m, 0, "b")->mutable_attr(), "g") = NestedGraphAttr(40); },
      E::kOutOfRange, "graph-valued attributes are nested more than 16 levels", true);
  mutate(
      "named_attrs_nesting_too_deep",
      [](proto::ModelDef& m) { Attr(Op(m, 0, "b")->mutable_attr(), "f") = NestedNamedAttrs(100); },
      E::kOutOfRange, "attribute values are nested more than 64 levels", true);
  mutate(
      "list_type_mismatch",
      [](proto::ModelDef& m) {
        proto::AttrDef::ListValue* l = Attr(Op(m, 0, "b")->mutable_attr(), "l").mutable_list();
        l->set_val_type(proto::AttrDef::ListValue::VT_LIST_INT);
        l->add_s("x");
      },
      E::kParseFailed, "list_int attribute also carries 1 list_string elements", true);
  mutate(
      "list_without_type",
      [](proto::ModelDef& m) { Attr(Op(m, 0, "b")->mutable_attr(), "l").mutable_list()->add_i(1); },
      E::kParseFailed, "list attribute without a value type");
  mutate(
      "list_unknown_type",
      [](proto::ModelDef& m) {
        Attr(Op(m, 0, "b")->mutable_attr(), "l")
            .mutable_list()
            ->set_val_type(static_cast<proto::AttrDef::ListValue::ListValueType>(77));
      },
      E::kParseFailed, "list attribute with unknown value type 77");
  mutate(
      "invalid_dtype_attr",
      [](proto::ModelDef& m) { Attr(Op(m, 0, "b")->mutable_attr(), "dt").set_dt(77); },
      E::kParseFailed, "attribute 'dt': data type 77");
  mutate(
      "empty_attr_name",
      [](proto::ModelDef& m) { Attr(Op(m, 0, "b")->mutable_attr(), "").set_i(1); },
      E::kParamInvalid, "attribute name must not be empty");
  DeserializeOptions short_lists;
  short_lists.max_list_size = 2;
  mutate(
      "list_too_long",
      [](proto::ModelDef& m) {
        proto::AttrDef::ListValue* l = Attr(Op(m, 0, "b")->mutable_attr(), "l").mutable_list();
        l->set_val_type(proto::AttrDef::ListValue::VT_LIST_INT);
        for (int i = 0; i < 3; ++i) l->add_i(i);
      },
      E::kOutOfRange, "list_int has 3 elements, more than the limit of 2", false, short_lists);
  mutate(
      "list_list_inner_too_long",
      [](proto::ModelDef& m) {
        auto* l =
            Attr(Op(m, 0, "b")->mutable_attr(), "l").mutable_list_list_int()->add_list_list_i();
        for (int i = 0; i < 3; ++i) l->add_list_i(i);
      },
      E::kOutOfRange, "inner list of list_list_int has 3 elements", false, short_lists);
  mutate(
      "bad_graph_attr",
      [](proto::ModelDef& m) {
        proto::GraphDef* g = Attr(Op(m, 0, "b")->mutable_attr(), "body").mutable_g();
        g->set_name("body");
        AddOp(g, "x", "Relu", 1, 1)->add_input("nothing:0");
      },
      E::kGraphInvalid, "attribute 'body': node 'x' input 0 refers to missing node 'nothing'");

  // Graph structure and subgraphs.
  mutate(
      "missing_subgraph", [](proto::ModelDef& m) { Op(m, 0, "c")->set_subgraph_name(0, "nope"); },
      E::kNotFound, "node 'c' refers to missing subgraph 'nope'", true);
  mutate(
      "missing_parent_graph",
      [](proto::ModelDef& m) { m.mutable_graph(1)->set_parent_graph("other"); }, E::kGraphInvalid,
      "refers to missing parent graph 'other'");
  mutate(
      "missing_parent_node", [](proto::ModelDef& m) { m.mutable_graph(1)->set_parent_node("zz"); },
      E::kGraphInvalid, "refers to missing parent node 'zz' in graph 'main'");
  mutate(
      "parent_chain_cycle",
      [](proto::ModelDef& m) {
        proto::GraphDef* s2 = m.add_graph();
        s2->set_name("loop");
        AddOp(s2, "f", "If", 0, 0);
        s2->set_parent_graph("then");
        s2->set_parent_node("d");
        m.mutable_graph(1)->set_parent_graph("loop");
        m.mutable_graph(1)->set_parent_node("f");
      },
      E::kGraphInvalid, "does not reach the root graph");
  mutate(
      "duplicate_graph_name", [](proto::ModelDef& m) { m.mutable_graph(1)->set_name("main"); },
      E::kGraphInvalid, "two graphs named 'main'");
  mutate(
      "root_with_parent", [](proto::ModelDef& m) { m.mutable_graph(0)->set_parent_graph("x"); },
      E::kGraphInvalid, "must not have a parent");
  mutate(
      "missing_graph_input", [](proto::ModelDef& m) { m.mutable_graph(0)->add_input("zz"); },
      E::kGraphInvalid, "input node 'zz' is missing");
  mutate(
      "missing_graph_output", [](proto::ModelDef& m) { m.mutable_graph(0)->set_output(0, "zz:0"); },
      E::kGraphInvalid, "output 0 refers to missing node 'zz'");
  mutate(
      "graph_output_index", [](proto::ModelDef& m) { m.mutable_graph(0)->set_output(0, "c:-1"); },
      E::kOutOfRange, "output 0 refers to output -1 of node 'c'");
  DeserializeOptions few_ops;
  few_ops.max_ops_per_graph = 2;
  mutate(
      "too_many_ops", [](proto::ModelDef&) {}, E::kOutOfRange,
      "graph 'main' has 3 ops, more than the limit of 2", false, few_ops);
  DeserializeOptions few_ports;
  few_ports.max_ports_per_op = 1;
  mutate(
      "too_many_ports", [](proto::ModelDef&) {}, E::kOutOfRange,
      "op has 2 input and 1 output descs, more than the limit of 1", false, few_ports);
  DeserializeOptions few_graphs;
  few_graphs.max_graphs = 1;
  mutate(
      "too_many_graphs", [](proto::ModelDef&) {}, E::kOutOfRange,
      "the model has 2 graphs, more than the limit of 1", false, few_graphs);
  return cases;
}

}  // namespace testing
}  // namespace ge

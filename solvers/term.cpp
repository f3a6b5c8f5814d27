// Hash-consed term DAG with constant folding and cheap local rewrites (after Bitwuzla's
// NodeManager and its "level 1" rewriter, and CBMC's simplify_exprt for the constant cases).
// Every node is interned: structurally equal terms are the same pointer, so equality of terms
// is pointer equality and side tables can be indexed by the dense `TermNode::id`. Commutative
// operators order their operands by id before interning so `a & b` and `b & a` coincide.
// Folding uses `eval_node`, the single reference semantics (SMT-LIB QF_BV: bvudiv x 0 = ~0,
// bvurem x 0 = x, bvsdiv/bvsrem by the SMT-LIB definitions, shifts by >= width give 0 or the
// sign fill), which is also what the bit-blaster is tested against.
#include "solvers/term.hpp"

#include "solvers/term_eval.hpp"

#include <cassert>
#include <unordered_map>
#include <utility>

namespace siren::solvers {

namespace {

std::size_t mix(std::size_t h, std::uint64_t v) {
  // boost::hash_combine with a 64-bit golden-ratio constant.
  return h ^ (static_cast<std::size_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

std::size_t compute_hash(const TermNode& n) {
  std::size_t h = static_cast<std::size_t>(n.kind);
  h = mix(h, n.sort.width);
  h = mix(h, n.value);
  h = mix(h, (std::uint64_t{n.aux0} << 32) | n.aux1);
  for (Term k : n.kids) h = mix(h, k->id);
  return h;
}

bool is_commutative(Kind k) {
  switch (k) {
    case Kind::And: case Kind::Or: case Kind::Xor: case Kind::Iff: case Kind::Eq:
    case Kind::BvAnd: case Kind::BvOr: case Kind::BvXor: case Kind::BvAdd: case Kind::BvMul:
      return true;
    default:
      return false;
  }
}

bool is_const(Term t) { return t->kind == Kind::Const; }
bool is_true(Term t) { return t->kind == Kind::Const && t->sort.is_bool() && t->value == 1; }
bool is_false(Term t) { return t->kind == Kind::Const && t->sort.is_bool() && t->value == 0; }
bool is_zero(Term t) { return t->kind == Kind::Const && t->value == 0; }
bool is_ones(Term t) {
  return t->kind == Kind::Const && !t->sort.is_bool() && t->value == width_mask(t->sort.width);
}
bool is_one(Term t) { return t->kind == Kind::Const && !t->sort.is_bool() && t->value == 1; }
// `a` is syntactically the negation of `b` (Bool not or bit-vector not).
bool negates(Term a, Term b) {
  return ((a->kind == Kind::Not || a->kind == Kind::BvNot) && a->kids[0] == b) ||
         ((b->kind == Kind::Not || b->kind == Kind::BvNot) && b->kids[0] == a);
}

std::int64_t to_signed(std::uint64_t v, std::uint32_t w) {
  if (w < 64 && (v >> (w - 1)) & 1) v |= ~width_mask(w);
  return static_cast<std::int64_t>(v);
}

}  // namespace

// ---- reference semantics ---------------------------------------------------------------

std::uint64_t eval_node(const TermNode& n, const std::uint64_t* kv) {
  const std::uint32_t w = n.sort.width;
  const std::uint64_t m = width_mask(w);
  auto kid_w = [&](std::size_t i) { return n.kids[i]->sort.width; };
  auto udiv = [](std::uint64_t a, std::uint64_t b, std::uint64_t mask) {
    return b == 0 ? mask : a / b;
  };
  auto urem = [](std::uint64_t a, std::uint64_t b) { return b == 0 ? a : a % b; };
  switch (n.kind) {
    case Kind::Const: return n.value;
    case Kind::Var: assert(false && "eval_node: Var has no intrinsic value"); return 0;
    case Kind::Not: return kv[0] ^ 1;
    case Kind::And: return kv[0] & kv[1];
    case Kind::Or: return kv[0] | kv[1];
    case Kind::Xor: return kv[0] ^ kv[1];
    case Kind::Iff: return (kv[0] == kv[1]) ? 1 : 0;
    case Kind::Implies: return (!kv[0] || kv[1]) ? 1 : 0;
    case Kind::Ite: return kv[0] ? kv[1] : kv[2];
    case Kind::Eq: return kv[0] == kv[1] ? 1 : 0;
    case Kind::BvNeg: return (~kv[0] + 1) & m;
    case Kind::BvNot: return ~kv[0] & m;
    case Kind::BvAnd: return kv[0] & kv[1];
    case Kind::BvOr: return kv[0] | kv[1];
    case Kind::BvXor: return kv[0] ^ kv[1];
    case Kind::BvAdd: return (kv[0] + kv[1]) & m;
    case Kind::BvSub: return (kv[0] - kv[1]) & m;
    case Kind::BvMul: return (kv[0] * kv[1]) & m;
    case Kind::BvUdiv: return udiv(kv[0], kv[1], m);
    case Kind::BvUrem: return urem(kv[0], kv[1]);
    case Kind::BvSdiv:
    case Kind::BvSrem: {
      // SMT-LIB: divide magnitudes, then fix the sign (quotient: xor of signs; remainder:
      // sign of the dividend). Unsigned arithmetic only, so INT_MIN / -1 is not UB.
      const bool ns = (kv[0] >> (w - 1)) & 1, nt = (kv[1] >> (w - 1)) & 1;
      const std::uint64_t as = ns ? (~kv[0] + 1) & m : kv[0];
      const std::uint64_t at = nt ? (~kv[1] + 1) & m : kv[1];
      if (n.kind == Kind::BvSdiv) {
        const std::uint64_t q = udiv(as, at, m);
        return (ns != nt) ? (~q + 1) & m : q;
      }
      const std::uint64_t r = urem(as, at);
      return ns ? (~r + 1) & m : r;
    }
    case Kind::BvShl: return kv[1] >= w ? 0 : (kv[0] << kv[1]) & m;
    case Kind::BvLshr: return kv[1] >= w ? 0 : kv[0] >> kv[1];
    case Kind::BvAshr: {
      const std::int64_t s = to_signed(kv[0], w);
      const std::uint64_t amount = kv[1] >= w ? w - 1 : kv[1];  // w-1 already gives the fill
      return static_cast<std::uint64_t>(s >> amount) & m;
    }
    case Kind::BvUlt: return kv[0] < kv[1] ? 1 : 0;
    case Kind::BvUle: return kv[0] <= kv[1] ? 1 : 0;
    case Kind::BvSlt: return to_signed(kv[0], kid_w(0)) < to_signed(kv[1], kid_w(1)) ? 1 : 0;
    case Kind::BvSle: return to_signed(kv[0], kid_w(0)) <= to_signed(kv[1], kid_w(1)) ? 1 : 0;
    case Kind::Extract: return (kv[0] >> n.aux1) & m;
    case Kind::Concat: {
      const std::uint32_t lw = kid_w(1);
      return ((lw >= 64 ? 0 : kv[0] << lw) | kv[1]) & m;
    }
    case Kind::ZeroExt: return kv[0];
    case Kind::SignExt: return static_cast<std::uint64_t>(to_signed(kv[0], kid_w(0))) & m;
  }
  return 0;
}

std::uint64_t evaluate(Term root, const std::vector<std::uint64_t>* var_values) {
  // Iterative post-order with a memo per node id: encoder terms can be deep ITE chains.
  std::unordered_map<std::uint32_t, std::uint64_t> memo;
  std::vector<std::pair<Term, bool>> stack{{root, false}};
  std::vector<std::uint64_t> kv;
  while (!stack.empty()) {
    auto [t, expanded] = stack.back();
    if (memo.count(t->id)) { stack.pop_back(); continue; }
    if (t->kind == Kind::Var) {
      std::uint64_t v = 0;
      if (var_values && t->id < var_values->size()) v = (*var_values)[t->id];
      memo.emplace(t->id, v & width_mask(t->sort.width == 0 ? 1 : t->sort.width));
      stack.pop_back();
      continue;
    }
    if (!expanded) {
      stack.back().second = true;
      for (Term k : t->kids)
        if (!memo.count(k->id)) stack.push_back({k, false});
      continue;
    }
    kv.clear();
    for (Term k : t->kids) kv.push_back(memo.at(k->id));
    memo.emplace(t->id, eval_node(*t, kv.data()));
    stack.pop_back();
  }
  return memo.at(root->id);
}

// ---- printing ---------------------------------------------------------------------------

namespace {
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Const: return "const"; case Kind::Var: return "var";
    case Kind::Not: return "not"; case Kind::And: return "and"; case Kind::Or: return "or";
    case Kind::Xor: return "xor"; case Kind::Iff: return "="; case Kind::Implies: return "=>";
    case Kind::Ite: return "ite"; case Kind::Eq: return "=";
    case Kind::BvNeg: return "bvneg"; case Kind::BvNot: return "bvnot";
    case Kind::BvAnd: return "bvand"; case Kind::BvOr: return "bvor";
    case Kind::BvXor: return "bvxor"; case Kind::BvAdd: return "bvadd";
    case Kind::BvSub: return "bvsub"; case Kind::BvMul: return "bvmul";
    case Kind::BvUdiv: return "bvudiv"; case Kind::BvUrem: return "bvurem";
    case Kind::BvSdiv: return "bvsdiv"; case Kind::BvSrem: return "bvsrem";
    case Kind::BvShl: return "bvshl"; case Kind::BvLshr: return "bvlshr";
    case Kind::BvAshr: return "bvashr"; case Kind::BvUlt: return "bvult";
    case Kind::BvUle: return "bvule"; case Kind::BvSlt: return "bvslt";
    case Kind::BvSle: return "bvsle"; case Kind::Extract: return "extract";
    case Kind::Concat: return "concat"; case Kind::ZeroExt: return "zero_extend";
    case Kind::SignExt: return "sign_extend";
  }
  return "?";
}

void print(Term t, std::string& out) {
  switch (t->kind) {
    case Kind::Const:
      if (t->sort.is_bool()) out += t->value ? "true" : "false";
      else out += "(_ bv" + std::to_string(t->value) + " " + std::to_string(t->sort.width) + ")";
      return;
    case Kind::Var: out += t->name; return;
    case Kind::Extract:
      out += "((_ extract " + std::to_string(t->aux0) + " " + std::to_string(t->aux1) + ") ";
      print(t->kids[0], out);
      out += ")";
      return;
    case Kind::ZeroExt:
    case Kind::SignExt:
      out += std::string("((_ ") + kind_name(t->kind) + " " +
             std::to_string(t->sort.width - t->kids[0]->sort.width) + ") ";
      print(t->kids[0], out);
      out += ")";
      return;
    default:
      out += "(";
      out += kind_name(t->kind);
      for (Term k : t->kids) { out += " "; print(k, out); }
      out += ")";
  }
}
}  // namespace

std::string to_string(Term t) {
  std::string s;
  print(t, s);
  return s;
}

// ---- the manager ------------------------------------------------------------------------

bool TermManager::Equal::operator()(const TermNode* a, const TermNode* b) const {
  return a->kind == b->kind && a->sort == b->sort && a->value == b->value &&
         a->aux0 == b->aux0 && a->aux1 == b->aux1 && a->kids == b->kids && a->name == b->name;
}

TermManager::TermManager() { table_.reserve(1 << 12); }
TermManager::~TermManager() = default;

Term TermManager::intern(TermNode n) {
  n.hash = compute_hash(n);
  auto it = table_.find(&n);
  if (it != table_.end()) return *it;
  n.id = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back(std::make_unique<TermNode>(std::move(n)));
  table_.insert(nodes_.back().get());
  return nodes_.back().get();
}

namespace {
TermNode make(Kind k, Sort s, std::vector<Term> kids, std::uint32_t aux0 = 0,
              std::uint32_t aux1 = 0) {
  TermNode n{k, s};
  n.kids = std::move(kids);
  n.aux0 = aux0;
  n.aux1 = aux1;
  if (is_commutative(k) && n.kids.size() == 2 && n.kids[1]->id < n.kids[0]->id)
    std::swap(n.kids[0], n.kids[1]);
  return n;
}
}  // namespace

Term TermManager::mk_bool(bool b) {
  TermNode n{Kind::Const, Sort::boolean()};
  n.value = b ? 1 : 0;
  return intern(std::move(n));
}

Term TermManager::mk_bv(std::uint32_t width, std::uint64_t bits) {
  assert(width >= 1 && width <= 64 && "mk_bv: width must be 1..64");
  TermNode n{Kind::Const, Sort::bv(width)};
  n.value = bits & width_mask(width);
  return intern(std::move(n));
}

Term TermManager::mk_var(Sort s, std::string name) {
  assert(s.width <= 64 && "mk_var: width must be <= 64");
  // Never interned: every call is a fresh symbol.
  auto node = std::make_unique<TermNode>(TermNode{Kind::Var, s});
  node->name = std::move(name);
  node->id = static_cast<std::uint32_t>(nodes_.size());
  node->hash = compute_hash(*node) ^ node->id;
  nodes_.push_back(std::move(node));
  return nodes_.back().get();
}

Term TermManager::mk_not(Term a) {
  assert(a->sort.is_bool() && "mk_not: Bool operand");
  if (is_const(a)) return mk_bool(a->value == 0);
  if (a->kind == Kind::Not) return a->kids[0];
  return intern(make(Kind::Not, Sort::boolean(), {a}));
}

Term TermManager::mk_and(Term a, Term b) {
  assert(a->sort.is_bool() && b->sort.is_bool() && "mk_and: Bool operands");
  if (is_false(a) || is_false(b)) return mk_false();
  if (is_true(a)) return b;
  if (is_true(b)) return a;
  if (a == b) return a;
  if (negates(a, b)) return mk_false();
  return intern(make(Kind::And, Sort::boolean(), {a, b}));
}

Term TermManager::mk_and(std::span<const Term> ts) {
  Term r = mk_true();
  for (Term t : ts) r = mk_and(r, t);
  return r;
}

Term TermManager::mk_or(Term a, Term b) {
  assert(a->sort.is_bool() && b->sort.is_bool() && "mk_or: Bool operands");
  if (is_true(a) || is_true(b)) return mk_true();
  if (is_false(a)) return b;
  if (is_false(b)) return a;
  if (a == b) return a;
  if (negates(a, b)) return mk_true();
  return intern(make(Kind::Or, Sort::boolean(), {a, b}));
}

Term TermManager::mk_or(std::span<const Term> ts) {
  Term r = mk_false();
  for (Term t : ts) r = mk_or(r, t);
  return r;
}

Term TermManager::mk_xor(Term a, Term b) {
  assert(a->sort.is_bool() && b->sort.is_bool() && "mk_xor: Bool operands");
  if (is_const(a) && is_const(b)) return mk_bool(a->value != b->value);
  if (is_false(a)) return b;
  if (is_false(b)) return a;
  if (is_true(a)) return mk_not(b);
  if (is_true(b)) return mk_not(a);
  if (a == b) return mk_false();
  if (negates(a, b)) return mk_true();
  return intern(make(Kind::Xor, Sort::boolean(), {a, b}));
}

Term TermManager::mk_iff(Term a, Term b) {
  assert(a->sort.is_bool() && b->sort.is_bool() && "mk_iff: Bool operands");
  return mk_eq(a, b);  // one node kind for Bool equality, so both spellings hash-cons
}

Term TermManager::mk_implies(Term a, Term b) { return mk_or(mk_not(a), b); }

Term TermManager::mk_ite(Term c, Term a, Term b) {
  assert(c->sort.is_bool() && "mk_ite: Bool condition");
  assert(a->sort == b->sort && "mk_ite: branches of one sort");
  if (is_true(c)) return a;
  if (is_false(c)) return b;
  if (a == b) return a;
  if (c->kind == Kind::Not) return mk_ite(c->kids[0], b, a);
  if (a->sort.is_bool()) {
    if (is_true(a)) return mk_or(c, b);
    if (is_false(a)) return mk_and(mk_not(c), b);
    if (is_true(b)) return mk_or(mk_not(c), a);
    if (is_false(b)) return mk_and(c, a);
  }
  return intern(make(Kind::Ite, a->sort, {c, a, b}));
}

Term TermManager::mk_eq(Term a, Term b) {
  assert(a->sort == b->sort && "mk_eq: operands of one sort");
  if (a == b) return mk_true();
  if (is_const(a) && is_const(b)) return mk_bool(a->value == b->value);
  if (a->sort.is_bool()) {
    if (is_true(a)) return b;
    if (is_true(b)) return a;
    if (is_false(a)) return mk_not(b);
    if (is_false(b)) return mk_not(a);
    if (negates(a, b)) return mk_false();
  }
  return intern(make(Kind::Eq, Sort::boolean(), {a, b}));
}

Term TermManager::mk_bv_unary(Kind k, Term a) {
  assert((k == Kind::BvNeg || k == Kind::BvNot) && "mk_bv_unary: BvNeg or BvNot");
  assert(!a->sort.is_bool() && "mk_bv_unary: bit-vector operand");
  TermNode n = make(k, a->sort, {a});
  if (is_const(a)) return mk_bv(a->sort.width, eval_node(n, &a->value));
  if (a->kind == k) return a->kids[0];  // --x = x, ~~x = x
  return intern(std::move(n));
}

Term TermManager::mk_bv_binary(Kind k, Term a, Term b) {
  assert(!a->sort.is_bool() && a->sort == b->sort && "mk_bv_binary: equal bit-vector sorts");
  const std::uint32_t w = a->sort.width;
  const bool cmp = k == Kind::BvUlt || k == Kind::BvUle || k == Kind::BvSlt || k == Kind::BvSle;
  assert((cmp || (k >= Kind::BvAnd && k <= Kind::BvAshr)) && "mk_bv_binary: binary bv kind");
  TermNode n = make(k, cmp ? Sort::boolean() : a->sort, {a, b});
  if (is_const(a) && is_const(b)) {
    const std::uint64_t kv[2] = {n.kids[0]->value, n.kids[1]->value};
    const std::uint64_t v = eval_node(n, kv);
    return cmp ? mk_bool(v != 0) : mk_bv(w, v);
  }
  // Cheap identities (after operand ordering, a constant may sit on either side).
  Term x = n.kids[0], y = n.kids[1];
  switch (k) {
    case Kind::BvAnd:
      if (is_zero(x) || is_zero(y)) return mk_bv(w, 0);
      if (is_ones(x)) return y;
      if (is_ones(y)) return x;
      if (x == y) return x;
      break;
    case Kind::BvOr:
      if (is_ones(x) || is_ones(y)) return mk_bv(w, ~std::uint64_t{0});
      if (is_zero(x)) return y;
      if (is_zero(y)) return x;
      if (x == y) return x;
      break;
    case Kind::BvXor:
      if (is_zero(x)) return y;
      if (is_zero(y)) return x;
      if (x == y) return mk_bv(w, 0);
      break;
    case Kind::BvAdd:
      if (is_zero(x)) return y;
      if (is_zero(y)) return x;
      break;
    case Kind::BvSub:
      if (is_zero(y)) return x;
      if (x == y) return mk_bv(w, 0);
      break;
    case Kind::BvMul:
      if (is_zero(x) || is_zero(y)) return mk_bv(w, 0);
      if (is_one(x)) return y;
      if (is_one(y)) return x;
      break;
    case Kind::BvUdiv: case Kind::BvSdiv:
      if (is_one(y)) return x;
      break;
    case Kind::BvShl: case Kind::BvLshr: case Kind::BvAshr:
      if (is_zero(y)) return x;
      if (is_const(y) && y->value >= w && k != Kind::BvAshr) return mk_bv(w, 0);
      break;
    case Kind::BvUlt: case Kind::BvSlt:
      if (x == y) return mk_false();
      break;
    case Kind::BvUle: case Kind::BvSle:
      if (x == y) return mk_true();
      break;
    default:
      break;
  }
  return intern(std::move(n));
}

Term TermManager::mk_extract(Term a, std::uint32_t hi, std::uint32_t lo) {
  assert(!a->sort.is_bool() && lo <= hi && hi < a->sort.width && "mk_extract: bad range");
  if (lo == 0 && hi + 1 == a->sort.width) return a;
  TermNode n = make(Kind::Extract, Sort::bv(hi - lo + 1), {a}, hi, lo);
  if (is_const(a)) return mk_bv(hi - lo + 1, eval_node(n, &a->value));
  if (a->kind == Kind::Extract)  // nested extracts compose
    return mk_extract(a->kids[0], a->aux1 + hi, a->aux1 + lo);
  return intern(std::move(n));
}

Term TermManager::mk_concat(Term hi, Term lo) {
  assert(!hi->sort.is_bool() && !lo->sort.is_bool() && "mk_concat: bit-vector operands");
  const std::uint32_t w = hi->sort.width + lo->sort.width;
  assert(w <= 64 && "mk_concat: result wider than 64 bits");
  TermNode n = make(Kind::Concat, Sort::bv(w), {hi, lo});
  if (is_const(hi) && is_const(lo)) {
    const std::uint64_t kv[2] = {hi->value, lo->value};
    return mk_bv(w, eval_node(n, kv));
  }
  return intern(std::move(n));
}

Term TermManager::mk_zext(Term a, std::uint32_t to_width) {
  assert(!a->sort.is_bool() && to_width >= a->sort.width && to_width <= 64 && "mk_zext");
  if (to_width == a->sort.width) return a;
  if (is_const(a)) return mk_bv(to_width, a->value);
  return intern(make(Kind::ZeroExt, Sort::bv(to_width), {a}));
}

Term TermManager::mk_sext(Term a, std::uint32_t to_width) {
  assert(!a->sort.is_bool() && to_width >= a->sort.width && to_width <= 64 && "mk_sext");
  if (to_width == a->sort.width) return a;
  TermNode n = make(Kind::SignExt, Sort::bv(to_width), {a});
  if (is_const(a)) return mk_bv(to_width, eval_node(n, &a->value));
  return intern(std::move(n));
}

Term TermManager::mk_resize(Term a, std::uint32_t to_width, bool is_signed) {
  const std::uint32_t w = a->sort.width;
  if (to_width < w) return mk_extract(a, to_width - 1, 0);
  return is_signed ? mk_sext(a, to_width) : mk_zext(a, to_width);
}

}  // namespace siren::solvers

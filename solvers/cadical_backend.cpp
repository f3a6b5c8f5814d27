// SatBackend adapter for CaDiCaL 1.5.3 (Biere et al., "CaDiCaL, Kissat, Paracooba, Plingeling
// and Treengeling entering the SAT Competition 2020"; adapter shape after Bitwuzla's
// src/sat/cadical.cpp). The only file in siren that includes cadical.hpp.
//
// Incremental use: clauses may be added between solves; assumptions hold for one solve.
// CaDiCaL aborts on `val()` unless the last solve was satisfiable and nothing was added since
// (adding a clause or an assumption resets its state), so the model is snapshotted before the
// first such call and `value()` reads the snapshot afterwards. A Terminator polls the
// user's callback, turning a time limit into result 0 (unknown).
#include "solvers/sat_backend.hpp"

#include <cadical.hpp>

#include <cassert>
#include <cstdlib>
#include <vector>

namespace siren::solvers {

namespace {

class CallbackTerminator : public CaDiCaL::Terminator {
 public:
  std::function<bool()> should_stop;
  bool terminate() override { return should_stop && should_stop(); }
};

class CadicalBackend final : public SatBackend {
 public:
  CadicalBackend() : solver_(std::make_unique<CaDiCaL::Solver>()) {
    solver_->set("quiet", 1);
    solver_->connect_terminator(&terminator_);
  }
  ~CadicalBackend() override { solver_->disconnect_terminator(); }

  int new_var() override { return ++num_vars_; }

  void add_clause(std::span<const int> lits) override {
    leave_sat_state();
    for (int l : lits) {
      assert(l != 0 && std::abs(l) <= num_vars_ && "add_clause: literal of an unknown variable");
      solver_->add(l);
    }
    solver_->add(0);
    ++num_clauses_;
  }

  void assume(int lit) override {
    assert(lit != 0 && std::abs(lit) <= num_vars_ && "assume: literal of an unknown variable");
    leave_sat_state();
    solver_->assume(lit);
  }

  int solve() override {
    model_.clear();
    live_model_ = false;
    status_ = solver_->solve();
    if (status_ == 10) live_model_ = true;
    return status_;
  }

  bool value(int lit) const override {
    assert(status_ == 10 && "value: the last solve() was not satisfiable");
    const int v = std::abs(lit);
    bool b = false;
    if (live_model_) {
      if (v <= solver_->vars()) b = solver_->val(v) > 0;
    } else if (static_cast<std::size_t>(v) < model_.size()) {
      b = model_[v];
    }
    return lit > 0 ? b : !b;
  }

  bool failed(int lit) const override {
    assert(status_ == 20 && "failed: the last solve() was not unsatisfiable");
    if (status_ != 20 || std::abs(lit) > solver_->vars()) return false;
    return solver_->failed(lit);
  }

  void set_terminate(std::function<bool()> should_stop) override {
    terminator_.should_stop = std::move(should_stop);
  }

  std::uint64_t num_vars() const override { return static_cast<std::uint64_t>(num_vars_); }
  std::uint64_t num_clauses() const override { return num_clauses_; }

 private:
  // Before CaDiCaL leaves the SATISFIED state, keep the model readable.
  void leave_sat_state() {
    if (!live_model_) return;
    const int n = solver_->vars();
    model_.assign(static_cast<std::size_t>(n) + 1, false);
    for (int v = 1; v <= n; ++v) model_[v] = solver_->val(v) > 0;
    live_model_ = false;
  }

  // CaDiCaL's val/failed/vars are non-const; unique_ptr keeps them callable from const.
  std::unique_ptr<CaDiCaL::Solver> solver_;
  CallbackTerminator terminator_;
  int num_vars_ = 0;
  std::uint64_t num_clauses_ = 0;
  int status_ = 0;
  bool live_model_ = false;
  std::vector<bool> model_;
};

}  // namespace

std::unique_ptr<SatBackend> make_cadical_backend() { return std::make_unique<CadicalBackend>(); }

}  // namespace siren::solvers

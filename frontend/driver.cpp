// Linux drivers as input (frontend.hpp, docs/drivers.md): the module's init and exit functions
// and its entry points, found in the Clang AST, and the harness that closes the driver for one
// pair of entry points (DESIGN.md §B10, after Whoop and SV-COMP's pthread-driver-races tasks).
#include "frontend/translator.hpp"

#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <fmt/format.h>

namespace siren::frontend {
namespace {

// Every function of the driver's own file whose address is taken (not a direct callee), with
// the place that takes it; an operations struct's designated field names it.
class EntryFinder : public RecursiveASTVisitor<EntryFinder> {
 public:
  EntryFinder(ASTContext& ctx, FileID main, bool every_own_field_internal = false)
      : ctx_(ctx), sm_(ctx.getSourceManager()), main_(main), every_own_field_internal_(every_own_field_internal) {}

  std::map<const FunctionDecl*, std::string> taken;  // canonical decl -> where
  // canonical decl -> why the kernel never runs it concurrently with itself
  std::map<const FunctionDecl*, std::string> serial;
  std::set<const FunctionDecl*> held;  // canonical decl: the kernel calls it with rtnl_lock held
  std::set<const FieldDecl*> used_fields;  // named by a member expression in the driver's file
  std::string init_var_fn, exit_var_fn;              // module_init / module_exit targets

  bool VisitVarDecl(VarDecl* vd) {
    const Expr* init = vd->getInit();
    if (!init) return true;
    const std::string n = vd->getName().str();
    if (const auto* dr = dyn_cast<DeclRefExpr>(init->IgnoreParenCasts()))
      if (const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl())) {
        // Whoop's Model/linux/init.h: `void (*_whoop_init)(void) = f;` (siren's kernel model
        // keeps that spelling); the kernel's own: init_module / cleanup_module aliases.
        if (n == "_whoop_init" || n == "__siren_module_init") init_var_fn = fd->getNameAsString();
        if (n == "_whoop_exit" || n == "__siren_module_exit") exit_var_fn = fd->getNameAsString();
      }
    if (const auto* il = dyn_cast<InitListExpr>(init->IgnoreParens())) fields(il, vd->getNameAsString());
    return true;
  }

  // The parameters' shape a call through a pointer is matched by (as Translator::pointer_targets
  // does: void, pointer, or other, per parameter).
  static std::string shape(const std::vector<QualType>& ts) {
    std::string out;
    for (QualType t : ts) {
      t = t.getCanonicalType();
      out += t->isVoidType() ? '0' : (t->isPointerType() || t->isArrayType() || t->isFunctionType()) ? '1' : '2';
    }
    return out;
  }

  // Every function with a body, with its direct callees (DriverScan::functions), and the
  // functions whose address is taken.
  std::vector<DriverFunction> functions;
  std::map<std::string, std::string> address_taken;

  bool TraverseFunctionDecl(FunctionDecl* fd) {
    const std::size_t saved = current_;
    if (fd->doesThisDeclarationHaveABody()) {
      const PresumedLoc b = sm_.getPresumedLoc(sm_.getExpansionLoc(fd->getBeginLoc()));
      const PresumedLoc e = sm_.getPresumedLoc(sm_.getExpansionLoc(fd->getEndLoc()));
      if (b.isValid() && e.isValid()) {
        functions.push_back({fd->getNameAsString(), b.getFilename(), b.getLine(), e.getLine(), {}});
        current_ = functions.size() - 1;
      }
    }
    const bool r = RecursiveASTVisitor::TraverseFunctionDecl(fd);
    current_ = saved;
    return r;
  }

  bool VisitCallExpr(CallExpr* ce) {
    callees_.insert(ce->getCallee()->IgnoreParenImpCasts());
    ok_use_.insert(stripped(ce->getCallee()));  // a call through a field or parameter
    // A function passed to the driver's own function: internal while that parameter is only called.
    if (const FunctionDecl* callee = ce->getDirectCallee())
      if (const FunctionDecl* def = callee->getDefinition(); def && in_main(def->getLocation()))
        for (unsigned i = 0; i < ce->getNumArgs() && i < def->getNumParams(); ++i) {
          const ParmVarDecl* p = def->getParamDecl(i);
          if (const DeclRefExpr* dr = function_ref(ce->getArg(i))) slot_.emplace(dr, p);
          if (const auto* from = dyn_cast<MemberExpr>(stripped(ce->getArg(i))))  // op(tp, tp->ops.down)
            if (const FieldDecl* f = own_field(from); f && p->getType()->isFunctionPointerType()) {
              ok_use_.insert(from);
              flows_.emplace(f->getCanonicalDecl(), p->getCanonicalDecl());
            }
        }
    if (current_ != kNone) {
      if (const FunctionDecl* callee = ce->getDirectCallee()) functions[current_].callees.push_back(callee->getNameAsString());
      else {
        std::vector<QualType> args;
        for (const Expr* a : ce->arguments()) args.push_back(a->getType());
        functions[current_].indirect.insert(shape(args));
      }
    }
    // An interrupt handler, a timer, work item or tasklet function: the kernel runs one of
    // these at a time (an interrupt line is masked while its handler runs; a timer, a work
    // item and a tasklet are not re-entered), so it is not paired with itself.
    static const std::map<std::string, std::string> kSerial = {
        {"request_irq", "an interrupt handler"},          {"request_threaded_irq", "an interrupt handler"},
        {"devm_request_irq", "an interrupt handler"},     {"devm_request_threaded_irq", "an interrupt handler"},
        {"request_any_context_irq", "an interrupt handler"}, {"setup_timer", "a timer function"},
        {"setup_deferrable_timer", "a timer function"},   {"tasklet_init", "a tasklet function"},
        {"__init_work", "a work function"},               {"INIT_WORK", "a work function"},
        {"INIT_DELAYED_WORK", "a work function"},         {"__INIT_WORK", "a work function"}};
    if (const FunctionDecl* callee = ce->getDirectCallee())
      if (const auto it = kSerial.find(callee->getNameAsString()); it != kSerial.end())
        for (const Expr* a : ce->arguments())
          if (const auto* fd = function_named(a)) serial.try_emplace(fd->getCanonicalDecl(), it->second + " (" + it->first + ")");
    return true;
  }

  // `void *` values the driver's code converts to a pointer to a struct: a parameter or field
  // (an interrupt handler's `dev_id`, an URB's `context`) -> that type; the results of the
  // driver-data getters and of netdev_priv -> votes for the device's data types.
  std::map<const Decl*, QualType> void_as;
  std::set<const Decl*> void_ambiguous;
  std::map<const clang::Type*, int> drvdata_votes, netdev_priv_votes;

  bool VisitCastExpr(CastExpr* c) {
    if (c->getCastKind() != CK_BitCast) return true;
    const QualType to = c->getType().getCanonicalType();
    if (!to->isPointerType() || !to->getPointeeType()->isRecordType()) return true;
    const Expr* from = c->getSubExpr()->IgnoreParenImpCasts();
    if (!from->getType().getCanonicalType()->isVoidPointerType()) return true;
    if (sm_.getFileID(sm_.getExpansionLoc(c->getExprLoc())) != main_) return true;
    const clang::Type* record = to->getPointeeType().getUnqualifiedType().getTypePtr();
    const Decl* d = nullptr;
    if (const auto* dr = dyn_cast<DeclRefExpr>(from); dr && isa<ParmVarDecl>(dr->getDecl())) d = dr->getDecl();
    if (const auto* me = dyn_cast<MemberExpr>(from)) d = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (d) {
      d = d->getCanonicalDecl();
      auto [it, fresh] = void_as.try_emplace(d, to.getUnqualifiedType());
      if (!fresh && it->second.getTypePtr() != to.getUnqualifiedType().getTypePtr()) void_ambiguous.insert(d);
    }
    if (const auto* call = dyn_cast<CallExpr>(from))
      if (const FunctionDecl* callee = call->getDirectCallee()) {
        static const std::set<std::string> kDrvdata = {
            "dev_get_drvdata", "pci_get_drvdata", "platform_get_drvdata", "usb_get_intfdata", "bl_get_data",
            "i2c_get_clientdata", "nfc_get_drvdata", "ps3_system_bus_get_drvdata", "usb_get_serial_port_data",
            "spi_get_drvdata"};
        const std::string n = callee->getNameAsString();
        if (kDrvdata.count(n)) ++drvdata_votes[record];
        if (n == "netdev_priv") ++netdev_priv_votes[record];
      }
    return true;
  }

  bool VisitMemberExpr(MemberExpr* me) {  // the fields the driver's own code names
    if (const auto* f = dyn_cast<FieldDecl>(me->getMemberDecl()))
      if (sm_.getFileID(sm_.getExpansionLoc(me->getExprLoc())) == main_) used_fields.insert(f->getCanonicalDecl());
    if (const FieldDecl* f = own_field(me)) uses_.emplace_back(me, f->getCanonicalDecl());
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr* c) {  // if (tp->hw_start): a test, not an escape
    if (c->getCastKind() == CK_PointerToBoolean) ok_use_.insert(stripped(c->getSubExpr()));
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* uo) {
    if (uo->getOpcode() == UO_LNot) ok_use_.insert(stripped(uo->getSubExpr()));
    return true;
  }
  // Conditions (C keeps a pointer condition without a conversion to bool).
  bool VisitIfStmt(IfStmt* st) { return test(st->getCond()); }
  bool VisitWhileStmt(WhileStmt* st) { return test(st->getCond()); }
  bool VisitDoStmt(DoStmt* st) { return test(st->getCond()); }
  bool VisitForStmt(ForStmt* st) { return test(st->getCond()); }
  bool VisitConditionalOperator(ConditionalOperator* co) { return test(co->getCond()); }
  bool test(const Expr* cond) {
    if (cond) ok_use_.insert(stripped(cond));
    return true;
  }

  // Functions whose address only reaches the driver's own calls: stored in a field of a struct
  // the driver's file defines, or passed to a parameter of a function it defines, where every
  // use of that field or parameter is a call, a test, a store into it, or a copy into another
  // such field. The kernel cannot call them (it does not know the driver's structs); they run
  // inside the entry points that call them. Function -> where its address is taken.
  std::map<const FunctionDecl*, std::string> internal() const {
    std::set<const Decl*> escaping;
    for (const auto& [e, d] : uses_)
      if (!ok_use_.count(e) && !(every_own_field_internal_ && isa<FieldDecl>(d))) escaping.insert(d);  // TEST ONLY
    for (bool changed = true; changed;) {  // a field copied into an escaping field or parameter escapes
      changed = false;
      for (const auto& [from, into] : flows_)
        if (escaping.count(into) && escaping.insert(from).second) changed = true;
    }
    std::map<const FunctionDecl*, bool> only_internal;
    for (const auto& [dr, fd] : refs_) {
      const auto it = slot_.find(dr);
      const bool in = it != slot_.end() && it->second->getType()->isFunctionPointerType() &&
                      !escaping.count(it->second->getCanonicalDecl());
      auto [o, fresh] = only_internal.try_emplace(fd, in);
      if (!fresh) o->second = o->second && in;
    }
    std::map<const FunctionDecl*, std::string> out;
    for (const auto& [fd, in] : only_internal)
      if (const auto t = taken.find(fd); in && t != taken.end()) out.emplace(fd, t->second);
    return out;
  }

  bool VisitBinaryOperator(BinaryOperator* bo) {  // timer.function = f; work.func = f
    if (bo->isEqualityOp() || bo->isLogicalOp()) ok_use_.insert({stripped(bo->getLHS()), stripped(bo->getRHS())});
    if (bo->getOpcode() != BO_Assign) return true;
    const auto* m = dyn_cast<MemberExpr>(bo->getLHS()->IgnoreParenImpCasts());
    ok_use_.insert(stripped(bo->getLHS()));
    if (const FieldDecl* into = m ? own_field(m) : nullptr) {
      if (const DeclRefExpr* dr = function_ref(bo->getRHS())) slot_.emplace(dr, into);
      if (const auto* from = dyn_cast<MemberExpr>(stripped(bo->getRHS())))  // tp->hw_start = cfg->hw_start
        if (const FieldDecl* f = own_field(from)) {
          ok_use_.insert(from);
          flows_.emplace(f->getCanonicalDecl(), into->getCanonicalDecl());
        }
    }
    const auto* fd = function_named(bo->getRHS());
    if (!m || !fd) return true;
    QualType base = m->getBase()->getType();
    if (m->isArrow() && base->isPointerType()) base = base->getPointeeType();
    if (const std::string why = serial_struct(base); !why.empty()) serial.try_emplace(fd->getCanonicalDecl(), why);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* dr) {
    if (const auto* p = dyn_cast<ParmVarDecl>(dr->getDecl()); p && p->getType()->isFunctionPointerType())
      uses_.emplace_back(dr, p->getCanonicalDecl());
    const auto* fd = dyn_cast<FunctionDecl>(dr->getDecl());
    if (!fd || callees_.count(dr)) return true;
    if (const FunctionDecl* def = fd->getDefinition()) refs_.emplace_back(dr, def->getCanonicalDecl());
    if (const FunctionDecl* def = fd->getDefinition(); def && !def->isVariadic()) {
      std::vector<QualType> params;
      for (const ParmVarDecl* p : def->parameters()) params.push_back(p->getType());
      address_taken.emplace(fd->getNameAsString(), shape(params));
    }
    note(fd, "address taken at " + at(dr->getExprLoc()));
    return true;
  }


 private:
  void fields(const InitListExpr* il, const std::string& var) {
    const InitListExpr* sem = il->isSemanticForm() ? il : il->getSemanticForm();
    if (!sem) sem = il;
    const RecordDecl* rd = sem->getType()->getAsRecordDecl();
    std::vector<const FieldDecl*> fs;
    if (rd) fs.assign(rd->field_begin(), rd->field_end());
    for (unsigned i = 0; i < sem->getNumInits(); ++i) {
      const Expr* e = sem->getInit(i);
      if (!e) continue;
      if (const auto* sub = dyn_cast<InitListExpr>(e->IgnoreParens())) {
        fields(sub, var);
        continue;
      }
      const auto* dr = dyn_cast<DeclRefExpr>(e->IgnoreParenCasts());
      if (const auto* uo = dyn_cast<UnaryOperator>(e->IgnoreParenCasts()); uo && uo->getOpcode() == UO_AddrOf)
        dr = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParenCasts());
      const auto* fd = dr ? dyn_cast<FunctionDecl>(dr->getDecl()) : nullptr;
      if (!fd) continue;
      const FieldDecl* f = rd && rd->isUnion() ? sem->getInitializedFieldInUnion() : (i < fs.size() ? fs[i] : nullptr);
      if (f && rd && in_main(rd->getLocation())) slot_.emplace(dr, f);
      const std::string type = rd ? rd->getNameAsString() : "";
      if (const std::string why = serial_struct(sem->getType()); !why.empty())
        serial.try_emplace(fd->getCanonicalDecl(), why);
      if (f && held_lock(type, f->getNameAsString())) held.insert(fd->getCanonicalDecl());
      note(fd, fmt::format(".{} in '{}'{} ({})", f ? f->getNameAsString() : "?", var,
                           type.empty() ? "" : " of struct " + type, at(e->getExprLoc())), true);
    }
  }

  void note(const FunctionDecl* fd, std::string where, bool field = false) {
    const FunctionDecl* def = fd->getDefinition();
    if (!def || sm_.getFileID(sm_.getExpansionLoc(def->getLocation())) != main_) return;
    auto [it, fresh] = taken.try_emplace(def->getCanonicalDecl(), where);
    if (!fresh && field && it->second.rfind("address taken", 0) == 0) it->second = where;  // the field says more
  }

  bool in_main(SourceLocation loc) const { return sm_.getFileID(sm_.getExpansionLoc(loc)) == main_; }

  // The field a member expression names, where the driver's file defines its struct.
  const FieldDecl* own_field(const MemberExpr* me) const {
    const auto* f = dyn_cast<FieldDecl>(me->getMemberDecl());
    return f && in_main(f->getParent()->getLocation()) ? f : nullptr;
  }

  static const Expr* stripped(const Expr* e) {  // (*ops->write)(...) calls ops->write
    for (;;) {
      e = e->IgnoreParenImpCasts();
      const auto* uo = dyn_cast<UnaryOperator>(e);
      if (!uo || uo->getOpcode() != UO_Deref) return e;
      e = uo->getSubExpr();
    }
  }

  static const DeclRefExpr* function_ref(const Expr* e) {
    e = e->IgnoreParenCasts();
    if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_AddrOf) e = uo->getSubExpr()->IgnoreParenCasts();
    const auto* dr = dyn_cast<DeclRefExpr>(e);
    return dr && isa<FunctionDecl>(dr->getDecl()) ? dr : nullptr;
  }

  static const FunctionDecl* function_named(const Expr* e) {
    const DeclRefExpr* dr = function_ref(e);
    return dr ? cast<FunctionDecl>(dr->getDecl()) : nullptr;
  }

  // The operations the kernel (Linux 4.0) calls with the routing netlink lock held: every
  // ethtool_ops function (dev_ethtool runs under rtnl_lock), and the net_device_ops that
  // net/core calls under it (dev_open / dev_close, the ioctls of dev_ifsioc, MTU, address and
  // feature changes, VLAN ids). Not: transmit, its timeout (a timer), rx mode (the address
  // list lock), statistics (RCU), netpoll.
  static bool held_lock(const std::string& type, const std::string& field) {
    static const std::set<std::string> kRtnl = {
        "ndo_init", "ndo_uninit", "ndo_open", "ndo_stop", "ndo_change_rx_flags", "ndo_set_mac_address",
        "ndo_validate_addr", "ndo_do_ioctl", "ndo_set_config", "ndo_change_mtu", "ndo_vlan_rx_add_vid",
        "ndo_vlan_rx_kill_vid", "ndo_fix_features", "ndo_set_features", "ndo_change_carrier"};
    return type == "ethtool_ops" || (type == "net_device_ops" && kRtnl.count(field));
  }

  // The kernel structs whose function the kernel never runs concurrently with itself.
  static std::string serial_struct(QualType t) {
    const RecordDecl* rd = t.isNull() ? nullptr : t->getAsRecordDecl();
    const std::string n = rd ? rd->getNameAsString() : "";
    if (n == "timer_list") return "a timer function (struct timer_list)";
    if (n == "work_struct" || n == "delayed_work") return "a work function (struct " + n + ")";
    if (n == "tasklet_struct") return "a tasklet function (struct tasklet_struct)";
    return "";
  }

  std::string at(SourceLocation loc) const {
    const PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
    return p.isValid() ? fmt::format("{}:{}", p.getFilename(), p.getLine()) : "?";
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  FileID main_;
  std::set<const Expr*> callees_;
  bool every_own_field_internal_;  // FrontendOptions::test_every_own_field_internal
  // internal(): where a function's address goes, and how the driver's own fields and
  // function-pointer parameters are used.
  std::vector<std::pair<const DeclRefExpr*, const FunctionDecl*>> refs_;  // address taken (canonical decl)
  std::map<const DeclRefExpr*, const ValueDecl*> slot_;  // ... into the driver's own field or parameter
  std::vector<std::pair<const Expr*, const Decl*>> uses_;  // every use of such a field or parameter
  std::set<const Expr*> ok_use_;  // calls, tests, stores, copies into another field
  std::multimap<const Decl*, const Decl*> flows_;  // field copied -> field or parameter it is copied into
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t current_ = kNone;  // the function whose body is being traversed
};

// Fresh arguments. A pointer to a complete struct, a scalar or an array gets a new heap object
// of its type, `void *` a 64-byte buffer (or, where the driver converts it to a pointer to a
// struct, an object of that struct); other pointers (function pointers, pointers to pointers,
// incomplete types) are null; integers are arbitrary values. The objects' numbers are
// arbitrary (as the kernel's callers' objects are to the driver), and their pointer fields
// that the driver's code names are set: to a new object of their own (`file->f_path.dentry`,
// `bdev->bd_disk`, `private_data`), two levels deep and at most kFreshObjects objects an
// argument, else null, so that no field the driver reads holds an arbitrary address (a
// dereference of one is a memory-safety UNKNOWN, and it would point anywhere for the
// candidates' points-to analysis). Fields the driver never names are left as they are: each
// object and each store is a step of the harness before the entry points run.
//
// One device (docs/drivers.md): every pointer to the driver's data type (what it converts the
// driver-data getters' results to) is the one object kDevice, which main makes before init
// and the getters return; a `struct net_device` has room for what netdev_priv() returns.
constexpr int kFreshDepth = 2;
constexpr int kFreshObjects = 12;
constexpr const char* kDevice = "siren_device_0";
constexpr const char* kNetdev = "siren_netdev_with_priv";  // a struct net_device and what netdev_priv() gives

// What the harness knows of the driver's types (EntryFinder).
struct DriverTypes {
  std::set<const FieldDecl*> used;        // fields the driver's code names
  std::map<const Decl*, QualType> void_as;  // `void *` parameters and fields -> the pointer type they are converted to
  const clang::Type* device = nullptr;            // the driver data's struct type (null: none known)
  const clang::Type* netdev_priv = nullptr;       // the struct netdev_priv() gives (null: none known)

  QualType as_converted(const Decl* d, QualType t) const {
    if (!t.getCanonicalType()->isVoidPointerType()) return t;
    const auto it = void_as.find(d->getCanonicalDecl());
    return it == void_as.end() ? t : it->second;
  }
};

struct Fresh {
  ASTContext& ctx;
  const DriverTypes& types;
  PrintingPolicy pp;
  std::string prefix;        // the names of this argument's objects: PREFIX_0, PREFIX_1, ...
  bool device_itself;        // making kDevice (prefix siren_device)
  std::vector<std::string> decls;  // file-scope declarations of the objects' pointers
  std::vector<std::string> setup;  // C statements, in order (main runs them before init)
  int objects = 0;

  Fresh(ASTContext& c, const DriverTypes& t, std::string p, bool device = false)
      : ctx(c), types(t), pp(c.getLangOpts()), prefix(std::move(p)), device_itself(device) {
    pp.SuppressTagKeyword = false;
  }
  std::string spell(QualType t) const { return t.getUnqualifiedType().getAsString(pp); }

  // A pointer of type `t` to a new object, as a C expression (a name declared in `decls`,
  // made in `setup`), or "0" where none is made (function pointers, pointers to pointers,
  // incomplete types, past the depth or the object budget, a union inside).
  std::string object(QualType t, int depth) {
    const QualType pt = t->getPointeeType();
    const QualType pc = pt.getCanonicalType();
    if (types.device && pc.getUnqualifiedType().getTypePtr() == types.device && !(device_itself && objects == 0))
      return kDevice;
    if (pc->isFunctionType() || pc->isPointerType() || depth > kFreshDepth || objects >= kFreshObjects) return "0";
    if (depth > 1 && holds_union(pc)) return "0";  // an argument's own type is the driver's business
    std::string alloc;
    bool with_priv = false;
    const auto* rt = pc->getAs<RecordType>();
    if (pc->isVoidType()) {
      alloc = "__builtin_malloc(64)";
    } else if (pc->isIncompleteType()) {
      return "0";
    } else if (rt && types.netdev_priv && rt->getDecl()->getName() == "net_device") {
      // Whoop's netdev_priv(dev) is (char *)dev + ALIGN(sizeof(struct net_device), NETDEV_ALIGN):
      // the object is a kNetdev, whose member `priv` is there (driver_harness declares it).
      with_priv = true;
    } else if (pc->isRecordType() || pc->isScalarType() || pc->isArrayType()) {
      const unsigned n = pc->isRecordType() || pc->isArrayType() ? 1 : (pc->isCharType() ? 64 : 16);
      alloc = fmt::format("({})__builtin_malloc({} * sizeof({}))", spell(t), n, spell(pt));
    } else {
      return "0";
    }
    const std::string name = fmt::format("{}_{}", prefix, objects++);
    // The object itself is written here (its fields set), even where `t` points to const.
    const std::string own = spell(ctx.getPointerType(pt.getUnqualifiedType()));
    decls.push_back(fmt::format("static {} {};", own, name));
    if (with_priv) {
      decls.push_back(fmt::format("static struct {} *{}_with_priv;", kNetdev, name));
      setup.push_back(fmt::format("{0}_with_priv = (struct {1} *)__builtin_malloc(sizeof(struct {1}));", name, kNetdev));
      setup.push_back(fmt::format("{0} = &{0}_with_priv->dev;", name));
    } else {
      setup.push_back(fmt::format("{} = ({}){};", name, own, alloc));
    }
    if (rt && !rt->getDecl()->isUnion()) fields(rt->getDecl(), "(*" + name + ")", depth + 1);
    if (with_priv)
      if (const auto* prt = types.netdev_priv->getAs<RecordType>())
        fields(prt->getDecl(), name + "_with_priv->priv", depth + 1);
    return name;
  }

  // Sets the pointer fields of the struct `lv` (a C lvalue) and of the structs it embeds.
  void fields(const RecordDecl* rd, const std::string& lv, int depth) {
    const RecordDecl* def = rd->getDefinition();
    if (!def) return;
    for (const FieldDecl* f : def->fields()) {
      if (f->getName().empty() || f->isBitField()) continue;  // anonymous members: not named here
      if (!types.used.count(f->getCanonicalDecl())) continue;
      const QualType ft = f->getType();
      const QualType fc = ft.getCanonicalType();
      if (ft.isConstQualified()) continue;
      const std::string at = lv + "." + f->getNameAsString();
      if (fc->isFunctionPointerType()) continue;  // an operation the kernel provides: not called on these
      if (fc->isPointerType()) {
        setup.push_back(fmt::format("{} = {};", at, object(types.as_converted(f, ft), depth)));
      } else if (const auto* rt = fc->getAs<RecordType>(); rt && !rt->getDecl()->isUnion() && depth <= kFreshDepth) {
        fields(rt->getDecl(), at, depth);
      }
    }
  }
};

// A fresh value of parameter `p` as a C expression (the objects it names declared in e.decls
// and made by e.setup), or "" with `why` when the harness cannot make one. `share`: the
// struct type of an object of the argument's own that another thread's argument may be.
std::string fresh_value(ASTContext& ctx, const DriverTypes& types, const ParmVarDecl* p, const std::string& prefix,
                        DriverEntry& e, std::string& share, std::string& why) {
  Fresh f(ctx, types, prefix);
  const QualType t = types.as_converted(p, p->getType());
  const QualType c = t.getCanonicalType();
  const std::string spelled = f.spell(t);
  if (c->isPointerType()) {
    const std::string v = f.object(t, 1);
    if (v != "0" && v != kDevice && c->getPointeeType()->isRecordType()) share = f.spell(c->getPointeeType());
    e.decls.insert(e.decls.end(), f.decls.begin(), f.decls.end());
    e.setup.insert(e.setup.end(), f.setup.begin(), f.setup.end());
    return v;
  }
  if (c->isBooleanType()) return "(" + spelled + ")__VERIFIER_nondet_bool()";
  if (c->isIntegralOrEnumerationType()) return "(" + spelled + ")__VERIFIER_nondet_long()";
  why = "parameter of type '" + spelled + "'";
  return "";
}

// The type with the most votes (null: none); a tie goes to the name first in order.
const clang::Type* most_voted(const std::map<const clang::Type*, int>& votes) {
  const clang::Type* best = nullptr;
  int n = 0;
  for (const auto& [t, k] : votes)
    if (k > n || (k == n && QualType(t, 0).getAsString() < QualType(best, 0).getAsString())) best = t, n = k;
  return best;
}

}  // namespace

DriverScan scan_driver(const std::string& path, const FrontendOptions& options) {
  DriverScan s;
  std::unique_ptr<ASTUnit> ast = parse_c_file(path, options, s.errors);
  if (!ast) return s;
  ASTContext& ctx = ast->getASTContext();
  const FileID main = ctx.getSourceManager().getMainFileID();
  EntryFinder f(ctx, main, options.test_every_own_field_internal);
  f.TraverseDecl(ctx.getTranslationUnitDecl());
  s.init = f.init_var_fn;
  s.exit = f.exit_var_fn;
  s.functions = std::move(f.functions);
  s.address_taken = std::move(f.address_taken);
  DriverTypes types;
  types.used = f.used_fields;
  for (const auto& [d, t] : f.void_as)
    if (!f.void_ambiguous.count(d)) types.void_as.emplace(d, t);
  types.device = most_voted(f.drvdata_votes);
  types.netdev_priv = most_voted(f.netdev_priv_votes);
  if (types.device) {
    Fresh dev(ctx, types, "siren_device", true);
    dev.object(ctx.getPointerType(QualType(types.device, 0)), 1);
    s.device = dev.spell(QualType(types.device, 0));
    s.device_decls = std::move(dev.decls);
    s.device_setup = std::move(dev.setup);
  }
  if (types.netdev_priv) {  // the object a fresh `struct net_device *` points to (Fresh::object)
    const Fresh spelling(ctx, types, "");
    s.netdev_decl = fmt::format("struct {} {{\n  struct net_device dev;\n  {} priv __attribute__((aligned(NETDEV_ALIGN)));\n}};",
                                kNetdev, spelling.spell(QualType(types.netdev_priv, 0)));
  }
  std::vector<std::pair<unsigned, DriverEntry>> found;
  const std::map<const FunctionDecl*, std::string> internal = f.internal();
  for (const auto& [fd, where] : f.taken) {
    const FunctionDecl* def = fd->getDefinition();
    const std::string name = def->getNameAsString();
    if (name == s.init || name == s.exit) continue;
    if (internal.count(fd)) {
      s.internal.push_back({name, where});
      continue;
    }
    DriverEntry e;
    e.name = name;
    e.where = where;
    if (const auto it = f.serial.find(fd); it != f.serial.end()) e.serial = it->second;
    e.rtnl = f.held.count(fd) > 0;
    for (const ParmVarDecl* p : def->parameters()) {
      std::string why, share;
      std::string v = fresh_value(ctx, types, p, fmt::format("siren_t@_arg{}", e.args.size()), e, share, why);
      if (v.empty() && e.unsupported.empty()) e.unsupported = why;
      e.args.push_back(std::move(v));
      e.shares.push_back(std::move(share));
    }
    if (def->isVariadic() && e.unsupported.empty()) e.unsupported = "variadic entry point";
    found.emplace_back(ctx.getSourceManager().getFileOffset(ctx.getSourceManager().getExpansionLoc(def->getLocation())),
                       std::move(e));
  }
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto& [off, e] : found) s.entries.push_back(std::move(e));
  if (!s.init.empty())
    for (const Decl* d : ctx.getTranslationUnitDecl()->decls())
      if (const auto* fd = dyn_cast<FunctionDecl>(d); fd && fd->getNameAsString() == s.init)
        s.init_returns_int = fd->getReturnType()->isIntegerType();
  return s;
}

namespace {

// A fresh argument's text with its objects' names "siren_t@..." renamed to "NAME...".
std::string renamed(std::string text, const std::string& name) {
  for (std::size_t at = text.find("siren_t@"); at != std::string::npos; at = text.find("siren_t@", at + name.size()))
    text.replace(at, 8, name);
  return text;
}

// The includes and the file-scope declarations every harness has (the device's data, the
// net_device with its private area); `device` gets the statements of main that make the
// device's object.
std::string harness_head(const std::string& driver_path, const DriverScan& s, std::string& device) {
  // siren_kernel.h (kernel/include): the pthread declarations, without glibc's <pthread.h>,
  // whose types clash with a kernel's.
  std::string out = "#include <siren_kernel.h>\n";
  // the routing netlink lock the harness takes around the operations the kernel calls with it
  if (std::any_of(s.entries.begin(), s.entries.end(), [](const DriverEntry& e) { return e.rtnl; }))
    out += "#include <linux/rtnetlink.h>\n";
  out += fmt::format("#include \"{}\"\n\n", driver_path);
  if (!s.netdev_decl.empty()) out += s.netdev_decl + "\n";
  if (!s.device.empty()) {  // the one device's data (kernel/include/linux/device.h)
    for (const std::string& d : s.device_decls) out += d + "\n";
    for (const std::string& st : s.device_setup) device += "  " + st + "\n";
    device += fmt::format("  __siren_drvdata = {};  /* the driver data of the one device ({}) */\n", kDevice, s.device);
  }
  return out;
}

// The end of main: init (the harness stops when the module does not load), the two threads,
// exit.
std::string harness_run(const DriverScan& s) {
  std::string out;
  if (!s.init.empty())
    out += s.init_returns_int ? fmt::format("  if ({}() != 0) return 0;  /* the module did not load */\n", s.init)
                              : fmt::format("  {}();\n", s.init);
  out += "  pthread_t t1, t2;\n  pthread_create(&t1, 0, siren_thread_1, 0);\n"
         "  pthread_create(&t2, 0, siren_thread_2, 0);\n  pthread_join(t1, 0);\n  pthread_join(t2, 0);\n";
  if (!s.exit.empty()) out += fmt::format("  {}();\n", s.exit);
  out += "  return 0;\n}\n";
  return out;
}

std::string call_of(const DriverEntry& e, const std::string& name) {
  std::string call = e.name + "(";
  for (std::size_t i = 0; i < e.args.size(); ++i) call += (i ? ", " : "") + renamed(e.args[i], name);
  call += ")";
  return e.rtnl ? "rtnl_lock(); " + call + "; rtnl_unlock()" : call;  // as net/core calls it
}

}  // namespace

std::string driver_harness(const std::string& driver_path, const DriverScan& s, std::size_t a, std::size_t b) {
  const DriverEntry& ea = s.entries.at(a);
  const DriverEntry& eb = s.entries.at(b);
  std::string out = fmt::format(
      "/* siren triage --driver: the harness of entry points {} || {} (docs/drivers.md).\n"
      "   {}: {}\n   {}: {} */\n",
      ea.name, eb.name, ea.name, ea.where, eb.name, eb.where);
  std::string device;
  out += harness_head(driver_path, s, device);
  // The fresh objects of thread k's arguments are made by main before init (no thread runs
  // yet: create/join order keeps those steps apart from every other), their names numbered
  // by the thread (siren_t1_arg0_0, ...).
  std::string setup;
  auto thread = [&](const DriverEntry& e, int k) {
    const std::string name = fmt::format("siren_t{}", k);
    std::string decls;
    for (const std::string& d : e.decls) decls += renamed(d, name) + "\n";
    for (const std::string& st : e.setup) setup += "  " + renamed(st, name) + "\n";
    return fmt::format("{}static void *siren_thread_{}(void *unused) {{\n  (void)unused;\n  {};\n  return 0;\n}}\n\n",
                       decls, k, call_of(e, name));
  };
  out += thread(ea, 1);
  out += thread(eb, 2);
  // An argument of thread 2 may be the object of thread 1's argument of the same struct type
  // (the kernel may pass both entry points one file, one URB, one request), or its own.
  for (std::size_t j = 0; j < eb.args.size(); ++j) {
    if (j >= eb.shares.size() || eb.shares[j].empty()) continue;
    for (std::size_t i = 0; i < ea.args.size(); ++i)
      if (i < ea.shares.size() && ea.shares[i] == eb.shares[j]) {
        const std::string mine = renamed(eb.args[j], "siren_t2");
        setup += fmt::format("  {} = __VERIFIER_nondet_bool() ? {} : {};  /* one {} or two */\n", mine,
                             renamed(ea.args[i], "siren_t1"), mine, eb.shares[j]);
        break;
      }
  }
  return out + "int main(void) {\n" + device + setup + harness_run(s);
}

std::string driver_harness_all(const std::string& driver_path, const DriverScan& s,
                               const std::vector<std::size_t>& entries) {
  const std::size_t n = entries.size();
  std::string out =
      "/* siren triage --driver: the harness of every pair of these entry points at once (docs/drivers.md):\n"
      "   thread 1 runs entry point siren_ep1, thread 2 entry point siren_ep2 (siren_ep1 <= siren_ep2).\n";
  for (std::size_t x = 0; x < n; ++x)
    out += fmt::format("   {}: {}: {}\n", x, s.entries.at(entries[x]).name, s.entries.at(entries[x]).where);
  out += "*/\n";
  std::string device;
  out += harness_head(driver_path, s, device);
  // Thread k's arguments for entry point x are siren_tK_eX_...; main makes those of the two
  // chosen entry points only.
  auto name = [](int k, std::size_t x) { return fmt::format("siren_t{}_e{}", k, x); };
  for (int k = 1; k <= 2; ++k)
    for (std::size_t x = 0; x < n; ++x)
      for (const std::string& d : s.entries[entries[x]].decls) out += renamed(d, name(k, x)) + "\n";
  out += "static int siren_ep1, siren_ep2;  /* the entry points of threads 1 and 2 */\n\n";
  for (int k = 1; k <= 2; ++k) {
    out += fmt::format("static void *siren_thread_{0}(void *unused) {{\n  (void)unused;\n  switch (siren_ep{0}) {{\n", k);
    for (std::size_t x = 0; x < n; ++x)
      out += fmt::format("  case {}: {}; break;\n", x, call_of(s.entries[entries[x]], name(k, x)));
    out += "  }\n  return 0;\n}\n\n";
  }
  out += "int main(void) {\n" + device;
  out += fmt::format("  siren_ep1 = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= siren_ep1 && siren_ep1 < {});\n", n);
  out += fmt::format("  siren_ep2 = __VERIFIER_nondet_int();\n  __VERIFIER_assume(siren_ep1 <= siren_ep2 && siren_ep2 < {});\n",
                     n);
  for (std::size_t x = 0; x < n; ++x)
    if (const DriverEntry& e = s.entries[entries[x]]; !e.serial.empty())
      out += fmt::format("  __VERIFIER_assume(siren_ep1 != {0} || siren_ep2 != {0});  /* {1}: {2}, not beside itself */\n",
                         x, e.name, e.serial);
  for (int k = 1; k <= 2; ++k)
    for (std::size_t x = 0; x < n; ++x) {
      const DriverEntry& e = s.entries[entries[x]];
      if (e.setup.empty()) continue;
      out += fmt::format("  if (siren_ep{} == {}) {{\n", k, x);
      for (const std::string& st : e.setup) out += "    " + renamed(st, name(k, x)) + "\n";
      out += "  }\n";
    }
  // As in a pair's harness: an argument of thread 2 may be the object of thread 1's first
  // argument of the same struct type, or its own.
  std::vector<std::string> types;
  for (std::size_t x = 0; x < n; ++x)
    for (const std::string& t : s.entries[entries[x]].shares)
      if (!t.empty() && std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  for (std::size_t t = 0; t < types.size(); ++t) {
    std::string from, to;
    for (std::size_t x = 0; x < n; ++x) {
      const DriverEntry& e = s.entries[entries[x]];
      bool first = true;
      for (std::size_t i = 0; i < e.args.size() && i < e.shares.size(); ++i) {
        if (e.shares[i] != types[t]) continue;
        if (first) from += fmt::format("  if (siren_ep1 == {}) siren_one_{} = {};\n", x, t, renamed(e.args[i], name(1, x)));
        first = false;
        to += fmt::format("  if (siren_ep2 == {0} && siren_one_{1} && __VERIFIER_nondet_bool()) {2} = siren_one_{1};\n", x, t,
                          renamed(e.args[i], name(2, x)));
      }
    }
    if (!from.empty() && !to.empty())
      out += fmt::format("  void *siren_one_{} = 0;  /* one {} or two */\n", t, types[t]) + from + to;
  }
  return out + harness_run(s);
}

std::vector<std::size_t> entries_reaching(const DriverScan& s, const std::string& file, unsigned line) {
  std::map<std::string, const DriverFunction*> by_name;
  std::string target;
  for (const DriverFunction& f : s.functions) {
    by_name.emplace(f.name, &f);
    if (f.file == file && f.first <= line && line <= f.last) target = f.name;
  }
  std::vector<std::size_t> out;
  if (target.empty()) return out;
  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    std::set<std::string> seen{s.entries[e].name};
    std::vector<std::string> todo{s.entries[e].name};
    bool reaches = false;
    const auto taken = s.address_taken.find(target);
    while (!todo.empty() && !reaches) {
      const std::string f = todo.back();
      todo.pop_back();
      if (f == target) reaches = true;
      if (const auto it = by_name.find(f); it != by_name.end()) {
        if (taken != s.address_taken.end() && it->second->indirect.count(taken->second)) reaches = true;
        for (const std::string& c : it->second->callees)
          if (seen.insert(c).second) todo.push_back(c);
      }
    }
    if (reaches) out.push_back(e);
  }
  return out;
}

}  // namespace siren::frontend

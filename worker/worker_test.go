package worker_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/worker"
	"github.com/jangada/jangada/workflows"
)

// recorder is a Registry that remembers what was registered.
type recorder struct{ workflows, activities []string }

func (r *recorder) RegisterWorkflow(wf any) {
	r.workflows = append(r.workflows, runtime.FuncForPC(reflect.ValueOf(wf).Pointer()).Name())
}

func (r *recorder) RegisterActivity(a any) {
	r.activities = append(r.activities, reflect.TypeOf(a).String())
}

// A second processor adapter is one package plus its wiring: the worker is
// typed to processor's interfaces and imports no adapter package.
func TestWorkerImportsNoAdapter(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, "github.com/jangada/jangada/processor/") {
			t.Errorf("worker imports the adapter package %s; type it to package processor's interfaces", imp)
		}
	}
}

// The adapter the app picks brings its own machinery through
// processor.Registrar: the sandbox's simulated network is registered as it
// was when the worker named the sandbox.
func TestRegisterAddsTheAdapterMachinery(t *testing.T) {
	var r recorder
	worker.Register(&r, worker.Deps{Processor: &sandbox.Sandbox{}})
	if !slices.Contains(r.workflows, runtime.FuncForPC(reflect.ValueOf(sandbox.NetworkWorkflow).Pointer()).Name()) {
		t.Errorf("sandbox network workflow not registered: %v", r.workflows)
	}
	if !slices.Contains(r.activities, "*sandbox.Network") {
		t.Errorf("sandbox network activity not registered: %v", r.activities)
	}

	// Another adapter registers what it brings, and only that.
	var other recorder
	fake := &fakeAdapter{}
	worker.Register(&other, worker.Deps{Processor: fake})
	if fake.registeredOn != &other {
		t.Error("a Registrar adapter was not registered on the worker")
	}
	var none, plain recorder
	worker.Register(&none, worker.Deps{})
	worker.Register(&plain, worker.Deps{Processor: plainAdapter{}})
	if !slices.Equal(plain.workflows, none.workflows) || len(plain.activities) != 0 {
		t.Errorf("an adapter without machinery registered %v %v", plain.workflows, plain.activities)
	}
	if want := append(slices.Clone(none.workflows), runtime.FuncForPC(reflect.ValueOf(fakeWorkflow).Pointer()).Name()); !slices.Equal(other.workflows, want) {
		t.Errorf("workflows with a Registrar adapter = %v, want %v", other.workflows, want)
	}
}

// plainAdapter is an adapter with no machinery of its own.
type plainAdapter struct{ processor.Processor }

// fakeAdapter is an adapter that brings a workflow of its own.
type fakeAdapter struct {
	processor.Processor
	registeredOn processor.Registry
}

func (f *fakeAdapter) Register(r processor.Registry) {
	f.registeredOn = r
	r.RegisterWorkflow(fakeWorkflow)
}

func fakeWorkflow() error { return nil }

// TestEveryWorkflowIsHosted reads package workflows for its workflow
// functions and checks that the worker hosts each (webhook delivery on its
// own worker): a product's workflow that its file does not host would
// never run.
func TestEveryWorkflowIsHosted(t *testing.T) {
	hosted := map[string]bool{}
	for _, wf := range workflows.Hosted() {
		name := runtime.FuncForPC(reflect.ValueOf(wf).Pointer()).Name()
		hosted[name[strings.LastIndex(name, ".")+1:]] = true
	}
	found := 0
	for _, name := range declared(t, "../workflows", func(fn *ast.FuncDecl) bool {
		return fn.Recv == nil && strings.HasSuffix(fn.Name.Name, "Workflow") && firstParam(fn) == "workflow.Context"
	}) {
		found++
		if name == "WebhookDeliveryWorkflow" {
			if hosted[name] {
				t.Error("webhook delivery is hosted by the money worker; it runs on its own")
			}
			continue
		}
		if !hosted[name] {
			t.Errorf("workflows.%s is not hosted: add `var _ = host(%s)` beside it", name, name)
		}
	}
	if found < 10 || len(hosted) != found-1 {
		t.Errorf("%d workflow functions, %d hosted", found, len(hosted))
	}
}

// declared lists the names of dir's non-test functions that keep says.
func declared(t *testing.T, dir string, keep func(*ast.FuncDecl) bool) []string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && keep(fn) {
					out = append(out, fn.Name.Name)
				}
			}
		}
	}
	return out
}

// firstParam is the source form of fn's first parameter's type.
func firstParam(fn *ast.FuncDecl) string {
	if fn.Type.Params == nil || len(fn.Type.Params.List) == 0 {
		return ""
	}
	if sel, ok := fn.Type.Params.List[0].Type.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok {
			return x.Name + "." + sel.Sel.Name
		}
	}
	return ""
}

package worker_test

import (
	"go/build"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/jangada/jangada/processor"
	"github.com/jangada/jangada/processor/sandbox"
	"github.com/jangada/jangada/worker"
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

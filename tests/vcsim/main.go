// SPDX-License-Identifier: GPL-3.0-or-later
// vcsim-gpuwiz: a vSphere API simulator for the gpuwiz tests.
//
// It is govmomi's vcsim (the simulator package, as Debian packages it in
// golang-github-vmware-govmomi-dev, 0.24) with what gpuwiz reads and writes
// added: two NVIDIA L40S GPUs on every host (hardware.pciDevice,
// config.pciPassthruInfo), a HostPciPassthruSystem with UpdatePassthruConfig,
// EnvironmentBrowser.QueryConfigTarget listing the passthrough devices,
// ReconfigVM_Task/UpgradeVM_Task that refuse a powered-on VM the way vSphere
// does, RebootHost_Task, RetrievePropertiesEx paging with
// ContinueRetrievePropertiesEx, and fault injection (-fail, -die-after,
// -task-delay-ms).
//
// It prints one JSON line on stdout once it listens, then serves until
// SIGTERM/SIGINT or EOF on stdin.  See README.md next to this file.
package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	stdlog "log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/signal"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vmware/govmomi/object"
	"github.com/vmware/govmomi/simulator"
	"github.com/vmware/govmomi/simulator/esx"
	"github.com/vmware/govmomi/vim25"
	"github.com/vmware/govmomi/vim25/methods"
	"github.com/vmware/govmomi/vim25/mo"
	"github.com/vmware/govmomi/vim25/soap"
	"github.com/vmware/govmomi/vim25/types"
	"github.com/vmware/govmomi/vim25/xml"
)

const (
	licenseMessage = "Current license or ESXi version prohibits execution of the requested operation."
	// systemId of host 0 in ConfigTarget.pciPassthrough; host i adds i.
	systemIDPrefix = "5f3a1c2e-8b4d-11ee-9a2b-"
	systemIDBase   = 0x3cecef0a1b2c
	nvidiaVendor   = 0x10de
	pciController  = 100 // key of the VirtualPCIController vcsim gives every VM
)

// The two GPUs every host gets.  The first is passthrough enabled and active,
// the second is only passthrough capable.
var gpus = []types.HostPciDevice{
	{Id: "0000:3b:00.0", ClassId: 0x0302, Bus: 0x3b, VendorId: nvidiaVendor, SubVendorId: nvidiaVendor,
		VendorName: "NVIDIA Corporation", DeviceId: 0x26b9, SubDeviceId: 0x1851, DeviceName: "AD102GL [L40S]"},
	{Id: "0000:5e:00.0", ClassId: 0x0302, Bus: 0x5e, VendorId: nvidiaVendor, SubVendorId: nvidiaVendor,
		VendorName: "NVIDIA Corporation", DeviceId: 0x26b9, SubDeviceId: 0x1851, DeviceName: "AD102GL [L40S]"},
}

// vGPU profiles reported in ConfigTarget.sharedGpuPassthroughTypes and
// config.sharedPassthruGpuTypes.
var vgpuProfiles = []string{
	"nvidia_l40s-4c", "nvidia_l40s-6c", "nvidia_l40s-8c", "nvidia_l40s-12c",
	"nvidia_l40s-16c", "nvidia_l40s-24c", "nvidia_l40s-48c",
	"nvidia_l40s-24q", "nvidia_l40s-48q",
}

// product versions for -version: builds and the newest virtual hardware.
type product struct{ esxBuild, vcBuild, apiVersion, hwVersion string }

var products = map[string]product{
	"8.0.2": {"22380479", "22385739", "8.0.2.0", "vmx-21"},
	"7.0.3": {"21930508", "22357613", "7.0.3.0", "vmx-19"},
	"6.5.0": {"5969303", "5973321", "6.5", "vmx-13"},
}

// API versions vimServiceVersions.xml may list as prior versions.
var apiVersions = []string{
	"8.0.2.0", "8.0.1.0", "8.0.0.2", "8.0.0.1", "8.0.0.0",
	"7.0.3.2", "7.0.3.1", "7.0.3.0", "7.0.2.1", "7.0.2.0", "7.0.1.1", "7.0.1.0",
	"7.0.0.2", "7.0.0.1", "7.0.0.0", "6.9.1", "6.8.7", "6.7.3", "6.7.2", "6.7.1",
	"6.7", "6.5", "6.0", "5.5", "5.1", "5.0",
}

// faults -fail can inject, by name.
var faultKinds = []string{"license", "fault", "invalidargument", "notauthenticated", "nopermission", "powerstate", "taskfault"}

type failFlag map[string]string

func (f failFlag) String() string { return "" }

func (f failFlag) Set(v string) error {
	i := strings.IndexByte(v, '=')
	if i <= 0 {
		return fmt.Errorf("want METHOD=FAULT, got %q", v)
	}
	kind := v[i+1:]
	if kind == "taskfault" && !strings.HasSuffix(v[:i], "_Task") {
		return fmt.Errorf("taskfault is for *_Task methods, not %s", v[:i])
	}
	for _, k := range faultKinds {
		if k == kind {
			f[v[:i]] = kind
			return nil
		}
	}
	return fmt.Errorf("unknown fault %q (one of %s)", kind, strings.Join(faultKinds, ", "))
}

// optionalInt is an int flag whose default depends on other flags.
type optionalInt struct {
	n   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optionalInt) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number >= 0")
	}
	o.n, o.set = n, true
	return nil
}

type app struct {
	model     *simulator.Model
	isESX     bool
	user      string
	fail      failFlag
	dieAfter  string
	hang      string
	taskDelay time.Duration
	pageSize  int
	verbose   bool
	// -graphics-type, -no-vgpu-manager
	graphicsType  string
	noVgpuManager bool
	latestHW      string
	apiVer        string

	mux         *http.ServeMux
	srv         *http.Server
	content     types.ServiceContent
	hostIndex   map[types.ManagedObjectReference]int
	dieOnce     sync.Once
	cleanupOnce sync.Once

	// -request-log FILE: one line per SOAP request, its method
	logMu      sync.Mutex
	requestLog *os.File
	// -fail-vm GLOB: ReconfigVM_Task of the VMs so named fails in the task
	failVM string
	// -silent-vm GLOB: the tasks on the VMs so named end without telling
	// the property collectors (the fields change, no update is sent): a
	// server that misses an update, which a client must survive
	silentVM string

	pagesMu   sync.Mutex
	pages     map[string][][]byte // RetrievePropertiesEx token: the pages left
	nextToken int
}

// logger is for our messages; the log package, which vcsim uses, writes
// only with -v.
var logger = stdlog.New(os.Stderr, "vcsim-gpuwiz: ", 0)

func main() {
	a := &app{fail: failFlag{}, hostIndex: map[types.ManagedObjectReference]int{}, pages: map[string][][]byte{}}
	modelName := flag.String("model", "esx", "esx (a standalone ESXi host) or vpx (vCenter: datacenter, cluster, hosts)")
	nvms := &optionalInt{}
	flag.Var(nvms, "vms", "number of VMs (default 2 for esx, one per host for vpx)")
	non := flag.Int("on", 1, "power on the first N VMs, the others stay off")
	user := flag.String("user", "user", "the only user name Login accepts")
	pass := flag.String("pass", "pass", "the only password Login accepts")
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on (TLS)")
	certOut := flag.String("cert-out", "", "write the server certificate (PEM) to this file")
	version := flag.String("version", "8.0.2", "product version to report: 8.0.2, 7.0.3 or 6.5.0")
	hwVersion := flag.String("hw-version", "vmx-13", "virtual hardware version of the VMs created at start")
	firmware := flag.String("firmware", "bios", "firmware of the VMs created at start: bios or efi")
	flag.Var(a.fail, "fail", "METHOD=FAULT: answer METHOD with a SOAP fault (taskfault: with a task that fails), FAULT one of "+strings.Join(faultKinds, ", ")+" (repeatable)")
	flag.StringVar(&a.dieAfter, "die-after", "", "exit right after answering the first call of this SOAP method")
	flag.StringVar(&a.hang, "hang", "", "never answer this SOAP method (the connection stays open): a client's call timeout")
	delay := flag.Int("task-delay-ms", 0, "keep the ReconfigVM_Task, UpgradeVM_Task and RebootHost_Task tasks running this long (progress 0, 50, 100)")
	flag.IntVar(&a.pageSize, "page-size", 0, "RetrievePropertiesEx answers at most this many objects at a time (0: as many as the client's maxObjects)")
	flag.StringVar(&a.graphicsType, "graphics-type", "sharedDirect", "every host's config.graphicsConfig.hostDefaultGraphicsType: shared or sharedDirect")
	flag.BoolVar(&a.noVgpuManager, "no-vgpu-manager", false, "hosts without the NVIDIA vGPU manager: no config.sharedPassthruGpuTypes, GPUs of graphicsType basic")
	requestLog := flag.String("request-log", "", "append the method of each SOAP request to this file, one line each (a test counts them)")
	flag.StringVar(&a.silentVM, "silent-vm", "", "tasks on the VMs whose name matches this glob end without an update to the property collectors (a lost update)")
	flag.StringVar(&a.failVM, "fail-vm", "", "ReconfigVM_Task of the VMs whose name matches this glob fails in the task with SystemError")
	flag.BoolVar(&a.verbose, "v", false, "log each SOAP method called, and vcsim's own messages, on stderr")
	flag.Parse()
	if a.verbose {
		stdlog.SetFlags(0)
		stdlog.SetPrefix("vcsim: ")
	} else {
		stdlog.SetOutput(io.Discard)
	}

	if flag.NArg() != 0 {
		logger.Fatalf("unexpected argument %q", flag.Arg(0))
	}
	prod, ok := products[*version]
	if !ok {
		logger.Fatalf("-version: unknown version %q (8.0.2, 7.0.3 or 6.5.0)", *version)
	}
	if _, ok := vmxNumber(*hwVersion); !ok {
		logger.Fatalf("-hw-version: want vmx-NN, got %q", *hwVersion)
	}
	if *firmware != "bios" && *firmware != "efi" {
		logger.Fatalf("-firmware: want bios or efi, got %q", *firmware)
	}
	if a.pageSize < 0 {
		logger.Fatalf("-page-size: negative")
	}
	if *delay < 0 {
		logger.Fatalf("-task-delay-ms: negative")
	}
	if a.graphicsType != "shared" && a.graphicsType != "sharedDirect" {
		logger.Fatalf("-graphics-type: want shared or sharedDirect, got %q", a.graphicsType)
	}
	if _, err := path.Match(a.silentVM, ""); err != nil {
		logger.Fatalf("-silent-vm: bad pattern %q", a.silentVM)
	}
	if _, err := path.Match(a.failVM, ""); err != nil {
		logger.Fatalf("-fail-vm: bad pattern %q", a.failVM)
	}
	if *requestLog != "" {
		f, err := os.OpenFile(*requestLog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			logger.Fatalf("-request-log: %v", err)
		}
		a.requestLog = f
	}
	a.user = *user
	a.taskDelay = time.Duration(*delay) * time.Millisecond
	a.latestHW = prod.hwVersion
	a.apiVer = prod.apiVersion

	switch *modelName {
	case "esx":
		a.model = simulator.ESX()
		a.isESX = true
	case "vpx":
		a.model = simulator.VPX()
	default:
		logger.Fatalf("-model: want esx or vpx, got %q", *modelName)
	}
	a.model.Machine = 0 // the VMs are created below, spread over the hosts
	a.model.Autostart = false
	setAbout(&a.model.ServiceContent.About, *version, prod, a.isESX)
	esx.HardwareVersion = prod.hwVersion // what vcsim gives VMs created without a version
	if err := a.model.Create(); err != nil {
		a.cleanup()
		logger.Fatalf("creating the inventory: %v", err)
	}
	a.content = a.model.ServiceContent

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		a.cleanup()
		logger.Fatalf("-listen: %v", err)
	}
	cert, err := makeCert(ln.Addr().(*net.TCPAddr).IP)
	if err != nil {
		a.cleanup()
		logger.Fatalf("certificate: %v", err)
	}
	if *certOut != "" {
		block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]})
		if err := os.WriteFile(*certOut, block, 0o644); err != nil {
			a.cleanup()
			logger.Fatalf("-cert-out: %v", err)
		}
	}

	hosts := a.setupHosts(*version, prod)
	a.setupEnvironmentBrowsers()
	n := -1 // the model's default
	if nvms.set {
		n = nvms.n
	}
	vms, err := a.createVMs(hosts, n, *non, *hwVersion, *firmware)
	if err != nil {
		a.cleanup()
		logger.Fatalf("creating the VMs: %v", err)
	}

	addr := ln.Addr().String()
	a.serve(ln, addr, *user, *pass, cert)

	out := struct {
		URL        string   `json:"url"`
		Thumbprint string   `json:"thumbprint"`
		Model      string   `json:"model"`
		Hosts      []string `json:"hosts"`
		VMs        []string `json:"vms"`
	}{"https://" + addr + "/sdk", thumbprint(cert.Certificate[0]), *modelName, []string{}, vms}
	for _, h := range hosts {
		out.Hosts = append(out.Hosts, h.Name)
	}
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(&out)
	if _, err := os.Stdout.Write(line.Bytes()); err != nil {
		a.cleanup()
		os.Exit(1)
	}
	_ = os.Stdout.Sync()

	a.waitForEnd()
}

// setAbout makes the service report the given product version.
func setAbout(about *types.AboutInfo, version string, p product, isESX bool) {
	build := p.vcBuild
	if isESX {
		build = p.esxBuild
	}
	about.FullName = fmt.Sprintf("%s %s build-%s", about.Name, version, build)
	about.Version = version
	about.Build = build
	about.ApiVersion = p.apiVersion
	about.LicenseProductVersion = version[:strings.LastIndexByte(version, '.')]
}

// serve starts the HTTPS server: vcsim's /sdk handler behind a middleware.
func (a *app) serve(ln net.Listener, addr, user, pass string, cert tls.Certificate) {
	svc := a.model.Service
	// A Listen.User other than simulator.DefaultLogin makes Login accept
	// only this user name and password (and answer InvalidLogin otherwise).
	svc.Listen = &url.URL{Scheme: "https", Host: addr, Path: vim25.Path, User: url.UserPassword(user, pass)}
	svc.RegisterSDK(simulator.Map)
	a.mux = svc.ServeMux
	a.mux.HandleFunc(vim25.Path+"/vimServiceVersions.xml", a.serviceVersions)
	a.mux.HandleFunc("/folder/", svc.ServeDatastore)
	a.mux.HandleFunc("/about", svc.About)
	simulator.Map.SessionManager().ServiceHostName = addr

	a.srv = &http.Server{
		Handler: a,
		TLSConfig: &tls.Config{
			Certificates: []tls.Certificate{cert},
			MinVersion:   tls.VersionTLS12,
		},
		// HTTP/1.1 only, as ESXi and vCenter
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
	}
	go func() {
		if err := a.srv.ServeTLS(ln, "", ""); err != nil && err != http.ErrServerClosed {
			logger.Printf("serve: %v", err)
		}
	}()
}

func (a *app) serviceVersions(w http.ResponseWriter, r *http.Request) {
	var prior strings.Builder
	for _, v := range apiVersions {
		if compareVersions(v, a.apiVer) < 0 {
			fmt.Fprintf(&prior, "   <version>%s</version>\n", v)
		}
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	fmt.Fprintf(w, "%s<namespaces version=\"1.0\">\n <namespace>\n  <name>urn:vim25</name>\n  <version>%s</version>\n  <priorVersions>\n%s  </priorVersions>\n </namespace>\n</namespaces>\n",
		xml.Header, a.apiVer, prior.String())
}

// waitForEnd returns never: it exits 0 on SIGTERM, SIGINT or EOF on stdin.
func (a *app) waitForEnd() {
	done := make(chan string, 2)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() { done <- (<-sig).String() }()
	if watchStdin() {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			done <- "end of stdin"
		}()
	}
	why := <-done
	if a.verbose {
		logger.Printf("exiting: %s", why)
	}
	_ = a.srv.Close()
	a.cleanup()
	os.Exit(0)
}

// watchStdin says whether EOF on stdin should end the program: not when
// stdin is closed or /dev/null (a background job of a non-interactive shell
// gets /dev/null), where EOF comes at once.
func watchStdin() bool {
	st, err := os.Stdin.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	if err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// cleanup removes the temporary datastore directories vcsim created.
func (a *app) cleanup() {
	a.cleanupOnce.Do(func() {
		if a.model != nil {
			a.model.Remove()
		}
	})
}

// ---------------------------------------------------------------------------
// Inventory

func refNumber(ref types.ManagedObjectReference) int {
	v := ref.Value
	i := strings.LastIndexByte(v, '-')
	n, err := strconv.Atoi(v[i+1:])
	if err != nil {
		return 0
	}
	return n
}

// sortedHosts lists the hosts in the order vcsim created them.
func sortedHosts() []*simulator.HostSystem {
	var hosts []*simulator.HostSystem
	for _, e := range simulator.Map.All("HostSystem") {
		if h, ok := e.(*simulator.HostSystem); ok {
			hosts = append(hosts, h)
		}
	}
	sort.Slice(hosts, func(i, j int) bool {
		return refNumber(hosts[i].Self) < refNumber(hosts[j].Self)
	})
	return hosts
}

func systemID(index int) string {
	return fmt.Sprintf("%s%012x", systemIDPrefix, systemIDBase+index)
}

// setupHosts adds the GPUs, their passthrough state and a
// HostPciPassthruSystem to every host.
func (a *app) setupHosts(version string, p product) []*simulator.HostSystem {
	hosts := sortedHosts()
	for i, h := range hosts {
		a.hostIndex[h.Self] = i

		devices := make([]types.HostPciDevice, 0, len(h.Hardware.PciDevice)+len(gpus))
		devices = append(devices, h.Hardware.PciDevice...)
		devices = append(devices, gpus...)
		h.Hardware.PciDevice = devices

		var info []types.BaseHostPciPassthruInfo
		for _, d := range devices {
			gpu := d.VendorId == nvidiaVendor
			active := gpu && d.Id == gpus[0].Id
			info = append(info, &types.HostPciPassthruInfo{
				Id:              d.Id,
				DependentDevice: d.Id,
				PassthruCapable: gpu,
				PassthruEnabled: active,
				PassthruActive:  active,
			})
		}
		h.Config.PciPassthruInfo = info
		// HostConfigInfo.graphicsConfig (vSphere 6.5 and later) and
		// graphicsInfo: the first GPU is in passthrough ("direct"), the
		// second follows the host's default type.
		second := a.graphicsType
		if a.noVgpuManager {
			second = "basic"
		} else {
			h.Config.SharedPassthruGpuTypes = append([]string(nil), vgpuProfiles...)
			// config.sharedGpuCapabilities: where community.vmware's
			// vmware_guest_vgpu looks the profiles up
			for _, v := range vgpuProfiles {
				h.Config.SharedGpuCapabilities = append(h.Config.SharedGpuCapabilities,
					types.HostSharedGpuCapabilities{Vgpu: v, SuspendSupported: true, MigrateSupported: true})
			}
		}
		h.Config.GraphicsConfig = &types.HostGraphicsConfig{
			HostDefaultGraphicsType:        a.graphicsType,
			SharedPassthruAssignmentPolicy: "performance",
		}
		h.Config.GraphicsInfo = []types.HostGraphicsInfo{
			{DeviceName: "NVIDIA L40S", VendorName: "NVIDIA Corporation", PciId: gpus[0].Id,
				GraphicsType: "direct", MemorySizeInKB: 48 << 20},
			{DeviceName: "NVIDIA L40S", VendorName: "NVIDIA Corporation", PciId: gpus[1].Id,
				GraphicsType: second, MemorySizeInKB: 48 << 20},
		}

		h.Config.Host = h.Self // vcsim leaves the template's ha-host on every host
		setAbout(&h.Config.Product, version, p, true)
		h.Summary.Config.Product = &h.Config.Product

		pps := &pciPassthruSystem{host: h.Self}
		pps.Self = types.ManagedObjectReference{Type: "HostPciPassthruSystem", Value: "ha-pcipassthrusystem"}
		if !a.isESX {
			pps.Self.Value = "pciPassthruSystem-" + h.Self.Value
		}
		pps.PciPassthruInfo = info
		simulator.Map.Put(pps)
		ref := pps.Self
		h.ConfigManager.PciPassthruSystem = &ref
	}
	return hosts
}

// setupEnvironmentBrowsers wraps the EnvironmentBrowser of every compute
// resource so QueryConfigTarget lists the passthrough devices.
func (a *app) setupEnvironmentBrowsers() {
	for _, kind := range []string{"ComputeResource", "ClusterComputeResource"} {
		for _, e := range simulator.Map.All(kind) {
			var ref *types.ManagedObjectReference
			switch cr := e.(type) {
			case *mo.ComputeResource:
				ref = cr.EnvironmentBrowser
			case *simulator.ClusterComputeResource:
				ref = cr.EnvironmentBrowser
			}
			if ref == nil {
				continue
			}
			if eb, ok := simulator.Map.Get(*ref).(*simulator.EnvironmentBrowser); ok {
				simulator.Map.Put(&envBrowser{EnvironmentBrowser: *eb, app: a, cr: e.Reference()})
			}
		}
	}
}

// createVMs creates n VMs named VM0, VM1, ... spread over the hosts and
// powers on the first on of them.
func (a *app) createVMs(hosts []*simulator.HostSystem, n, on int, hw, firmware string) ([]string, error) {
	ctx := context.Background()
	if n < 0 {
		n = 2
		if !a.isESX {
			n = len(hosts)
		}
	}
	c, err := vim25.NewClient(ctx, a.model.Service)
	if err != nil {
		return nil, err
	}
	dc := simulator.Map.Any("Datacenter")
	folders, err := object.NewDatacenter(c, dc.Reference()).Folders(ctx)
	if err != nil {
		return nil, err
	}

	names := []string{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("VM%d", i)
		host := object.NewHostSystem(c, hosts[i%len(hosts)].Self)
		pool, err := host.ResourcePool(ctx)
		if err != nil {
			return nil, err
		}

		spec := types.VirtualMachineConfigSpec{
			Name:     name,
			GuestId:  string(types.VirtualMachineGuestOsIdentifierOtherLinux64Guest),
			NumCPUs:  4,
			MemoryMB: 16384,
			Version:  hw,
			Firmware: firmware,
			Files:    &types.VirtualMachineFileInfo{VmPathName: "[LocalDS_0]"},
			// set, so that RetrievePropertiesEx returns it (vcsim omits unset values)
			MemoryReservationLockedToMax: types.NewBool(false),
		}
		var devices object.VirtualDeviceList
		scsi, _ := devices.CreateSCSIController("pvscsi")
		ide, _ := devices.CreateIDEController()
		cdrom, _ := devices.CreateCdrom(ide.(*types.VirtualIDEController))
		disk := devices.CreateDisk(scsi.(types.BaseVirtualController), types.ManagedObjectReference{},
			"[LocalDS_0] "+name+"/"+name+".vmdk")
		disk.CapacityInKB = 16 << 20
		nic, err := devices.CreateEthernetCard("vmxnet3", &types.VirtualEthernetCardNetworkBackingInfo{
			VirtualDeviceDeviceBackingInfo: types.VirtualDeviceDeviceBackingInfo{DeviceName: "VM Network"},
		})
		if err != nil {
			return nil, err
		}
		devices = append(devices, scsi, cdrom, disk, nic)
		spec.DeviceChange, _ = devices.ConfigSpec(types.VirtualDeviceConfigSpecOperationAdd)

		task, err := folders.VmFolder.CreateVM(ctx, spec, pool, host)
		if err != nil {
			return nil, err
		}
		info, err := task.WaitForResult(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if i < on {
			vm := object.NewVirtualMachine(c, info.Result.(types.ManagedObjectReference))
			task, err := vm.PowerOn(ctx)
			if err == nil {
				err = task.Wait(ctx)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: power on: %v", name, err)
			}
		}
		names = append(names, name)
	}
	return names, nil
}

// ---------------------------------------------------------------------------
// HostPciPassthruSystem

type pciPassthruSystem struct {
	mo.HostPciPassthruSystem

	host types.ManagedObjectReference
}

// UpdatePassthruConfig sets passthruEnabled; passthruActive follows at once
// only with applyNow, otherwise at the next reboot (RebootHost_Task).
func (p *pciPassthruSystem) UpdatePassthruConfig(ctx *simulator.Context, req *types.UpdatePassthruConfig) soap.HasFault {
	body := &methods.UpdatePassthruConfigBody{}
	host, ok := simulator.Map.Get(p.host).(*simulator.HostSystem)
	if !ok {
		body.Fault_ = simulator.Fault("host not found", &types.ManagedObjectNotFound{Obj: p.host})
		return body
	}
	ctx.WithLock(host, func() {
		find := func(id string) *types.HostPciPassthruInfo {
			for _, i := range host.Config.PciPassthruInfo {
				if info := i.GetHostPciPassthruInfo(); info.Id == id {
					return info
				}
			}
			return nil
		}
		for _, c := range req.Config {
			cfg := c.GetHostPciPassthruConfig()
			info := find(cfg.Id)
			if info == nil {
				body.Fault_ = simulator.Fault("A specified parameter was not correct: config.id",
					&types.InvalidArgument{InvalidProperty: "config.id"})
				return
			}
			if !info.PassthruCapable && cfg.PassthruEnabled {
				body.Fault_ = simulator.Fault(fmt.Sprintf("Device %s is not capable of passthrough.", cfg.Id),
					&types.HostConfigFault{})
				return
			}
		}
		for _, c := range req.Config {
			cfg := c.GetHostPciPassthruConfig()
			info := find(cfg.Id)
			info.PassthruEnabled = cfg.PassthruEnabled
			if cfg.ApplyNow != nil && *cfg.ApplyNow {
				info.PassthruActive = cfg.PassthruEnabled
			}
		}
		simulator.Map.Update(host, []types.PropertyChange{{Name: "config.pciPassthruInfo", Val: host.Config.PciPassthruInfo}})
		simulator.Map.Update(p, []types.PropertyChange{{Name: "pciPassthruInfo", Val: host.Config.PciPassthruInfo}})
		body.Res = &types.UpdatePassthruConfigResponse{}
	})
	return body
}

// ---------------------------------------------------------------------------
// EnvironmentBrowser

type envBrowser struct {
	simulator.EnvironmentBrowser

	app *app
	cr  types.ManagedObjectReference
}

// QueryConfigTarget adds pciPassthrough (the devices whose passthrough is
// active) and sharedGpuPassthroughTypes to vcsim's answer.
func (b *envBrowser) QueryConfigTarget(ctx *simulator.Context, req *types.QueryConfigTarget) soap.HasFault {
	res := b.EnvironmentBrowser.QueryConfigTarget(ctx, req)
	body, ok := res.(*methods.QueryConfigTargetBody)
	if !ok || body.Res == nil || body.Res.Returnval == nil {
		return res
	}
	target := body.Res.Returnval

	var hosts []types.ManagedObjectReference
	if req.Host != nil {
		hosts = []types.ManagedObjectReference{*req.Host}
	} else {
		switch cr := simulator.Map.Get(b.cr).(type) {
		case *mo.ComputeResource:
			hosts = cr.Host
		case *simulator.ClusterComputeResource:
			hosts = cr.Host
		}
	}

	shared := map[string]bool{}
	for _, ref := range hosts {
		h, ok := simulator.Map.Get(ref).(*simulator.HostSystem)
		if !ok {
			continue
		}
		for _, i := range h.Config.PciPassthruInfo {
			info := i.GetHostPciPassthruInfo()
			if !info.PassthruActive {
				continue
			}
			for _, d := range h.Hardware.PciDevice {
				if d.Id != info.Id {
					continue
				}
				target.PciPassthrough = append(target.PciPassthrough, &types.VirtualMachinePciPassthroughInfo{
					VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{
						Name:             fmt.Sprintf("%s | %s %s", d.Id, d.VendorName, d.DeviceName),
						ConfigurationTag: []string{"Host"},
					},
					PciDevice: d,
					SystemId:  systemID(b.app.hostIndex[ref]),
				})
			}
		}
		for _, p := range h.Config.SharedPassthruGpuTypes {
			if !shared[p] {
				shared[p] = true
				target.SharedGpuPassthroughTypes = append(target.SharedGpuPassthroughTypes,
					types.VirtualMachinePciSharedGpuPassthroughInfo{
						VirtualMachineTargetInfo: types.VirtualMachineTargetInfo{Name: p},
						Vgpu:                     p,
					})
			}
		}
	}
	return body
}

// ---------------------------------------------------------------------------
// SOAP middleware: fault injection, die-after, and the VM/host methods that
// vcsim's objects cannot be made to do by wrapping them (vcsim type-asserts
// *simulator.VirtualMachine and *simulator.HostSystem in many places, so
// those objects stay as they are and these calls are answered here).

type soapHandler func(a *app, w http.ResponseWriter, r *http.Request, m *simulator.Method) bool

var soapHandlers = map[string]soapHandler{
	"ReconfigVM_Task": (*app).reconfigVM,
	"UpgradeVM_Task":  (*app).upgradeVM,
	"RebootHost_Task": (*app).rebootHost,

	"RetrievePropertiesEx":         (*app).retrievePropertiesEx,
	"ContinueRetrievePropertiesEx": (*app).continueRetrievePropertiesEx,
	"CancelRetrievePropertiesEx":   (*app).cancelRetrievePropertiesEx,
}

func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != vim25.Path {
		a.mux.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	_ = r.Body.Close()
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	name, this := peekMethod(body)
	if a.verbose {
		logger.Printf("%s %s:%s", name, this.Type, this.Value)
	}
	a.logRequest(name)

	if name != "" && name == a.hang {
		// read the request, answer nothing until the client gives up
		<-r.Context().Done()
		return
	}
	die := false
	if name != "" && name == a.dieAfter {
		a.dieOnce.Do(func() { die = true })
	}
	if die {
		w.Header().Set("Connection", "close")
		defer func() { go a.exitAfter(name) }()
	}

	if kind, ok := a.fail[name]; ok {
		if kind == "taskfault" {
			if a.taskFault(w, r, name, this) {
				return
			}
		} else {
			msg, fault := injectedFault(kind, this)
			writeFault(w, msg, fault)
			return
		}
	}
	if h, ok := soapHandlers[name]; ok {
		if m, err := simulator.UnmarshalBody(typeFunc, body); err == nil && h(a, w, r, m) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	a.mux.ServeHTTP(w, r)
}

// logRequest appends the method to the -request-log file (written at once:
// the test reads it while the simulator runs).
func (a *app) logRequest(name string) {
	if a.requestLog == nil {
		return
	}
	if name == "" {
		name = "-"
	}
	a.logMu.Lock()
	_, _ = a.requestLog.WriteString(name + "\n")
	a.logMu.Unlock()
}

// exitAfter ends the program once the answer to the -die-after method is out.
func (a *app) exitAfter(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = a.srv.Shutdown(ctx)
	logger.Printf("exiting after %s (-die-after)", name)
	a.cleanup()
	os.Exit(0)
}

// peekMethod returns the name of the first element in the SOAP Body and its
// _this argument.
func peekMethod(body []byte) (string, types.ManagedObjectReference) {
	var this types.ManagedObjectReference
	d := xml.NewDecoder(bytes.NewReader(body))
	depth, bodyDepth := 0, -1
	name := ""
	for {
		tok, err := d.Token()
		if err != nil {
			return name, this
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case bodyDepth < 0 && t.Name.Local == "Body":
				bodyDepth = depth
			case bodyDepth > 0 && depth == bodyDepth+1 && name == "":
				name = t.Name.Local
			case name != "" && depth == bodyDepth+2 && t.Name.Local == "_this":
				for _, at := range t.Attr {
					if at.Name.Local == "type" {
						this.Type = at.Value
					}
				}
				var v string
				if err := d.DecodeElement(&v, &t); err == nil {
					this.Value = strings.TrimSpace(v)
				}
				depth--
				return name, this
			}
		case xml.EndElement:
			depth--
			if name != "" && depth <= bodyDepth {
				return name, this
			}
		}
	}
}

// typeFunc is vim25's, also accepting a namespace prefix in xsi:type
// ("vim25:VirtualPCIPassthrough").
func typeFunc(name string) (reflect.Type, bool) {
	f := types.TypeFunc()
	t, ok := f(name)
	if !ok {
		if i := strings.IndexByte(name, ':'); i >= 0 {
			t, ok = f(name[i+1:])
		}
	}
	return t, ok
}

const (
	envelopeStart = `<soapenv:Envelope xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>`
	envelopeEnd   = `</soapenv:Body></soapenv:Envelope>`
)

func writeXML(w http.ResponseWriter, status int, inner []byte) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(envelopeStart)
	b.Write(inner)
	b.WriteString(envelopeEnd)
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// writeFault answers with a SOAP fault the way vcsim does.
func writeFault(w http.ResponseWriter, msg string, fault types.BaseMethodFault) {
	var b bytes.Buffer
	b.WriteString("<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>")
	_ = xml.EscapeText(&b, []byte(msg))
	b.WriteString("</faultstring><detail>")
	kind := reflect.TypeOf(fault).Elem().Name()
	e := xml.NewEncoder(&b)
	_ = e.EncodeElement(fault, xml.StartElement{
		Name: xml.Name{Local: kind + "Fault"},
		Attr: []xml.Attr{
			{Name: xml.Name{Local: "xmlns"}, Value: "urn:" + vim25.Namespace},
			{Name: xml.Name{Local: "xsi:type"}, Value: kind},
		},
	})
	_ = e.Flush()
	b.WriteString("</detail></soapenv:Fault>")
	writeXML(w, http.StatusInternalServerError, b.Bytes())
}

func writeTaskResponse(w http.ResponseWriter, method string, task types.ManagedObjectReference) {
	inner := fmt.Sprintf(`<%sResponse xmlns="urn:%s"><returnval type="%s">%s</returnval></%sResponse>`,
		method, vim25.Namespace, task.Type, task.Value, method)
	writeXML(w, http.StatusOK, []byte(inner))
}

func injectedFault(kind string, this types.ManagedObjectReference) (string, types.BaseMethodFault) {
	var f types.BaseMethodFault
	switch kind {
	case "license":
		f = &types.RestrictedVersion{}
	case "fault":
		f = &types.SystemError{Reason: "vcsim-gpuwiz injected fault"}
	case "invalidargument":
		f = &types.InvalidArgument{InvalidProperty: "spec"}
	case "notauthenticated":
		f = &types.NotAuthenticated{NoPermission: types.NoPermission{Object: this, PrivilegeId: "System.View"}}
	case "nopermission":
		f = &types.NoPermission{Object: this, PrivilegeId: "System.Read"}
	default: // powerstate
		f = &types.InvalidPowerState{
			RequestedState: types.VirtualMachinePowerStatePoweredOff,
			ExistingState:  types.VirtualMachinePowerStatePoweredOn,
		}
	}
	return faultMessage(f), f
}

// faultMessage is the localizedMessage / faultstring vSphere gives a fault.
func faultMessage(f types.BaseMethodFault) string {
	switch f := f.(type) {
	case *types.RestrictedVersion:
		return licenseMessage
	case *types.SystemError:
		return "A general system error occurred: " + f.Reason
	case *types.InvalidArgument:
		return "A specified parameter was not correct: " + f.InvalidProperty
	case *types.NotAuthenticated:
		return "The session is not authenticated."
	case *types.NoPermission:
		return "Permission to perform this operation was denied."
	case *types.InvalidPowerState:
		state := map[types.VirtualMachinePowerState]string{
			types.VirtualMachinePowerStatePoweredOn:  "Powered on",
			types.VirtualMachinePowerStatePoweredOff: "Powered off",
			types.VirtualMachinePowerStateSuspended:  "Suspended",
		}[f.ExistingState]
		return fmt.Sprintf("The attempted operation cannot be performed in the current state (%s).", state)
	case *types.AlreadyUpgraded:
		return "Virtual machine compatibility is already up-to-date."
	case *types.InvalidDeviceSpec:
		return fmt.Sprintf("Invalid configuration for device '%d'.", f.DeviceIndex)
	case *types.InvalidState:
		return "The operation is not allowed in the current state."
	case *types.NotSupported:
		return "The operation is not supported on the object."
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", f), "*types.")
}

// authenticated says whether the request carries a logged-in session
// cookie, by asking vcsim a harmless question with the same cookie.
func (a *app) authenticated(r *http.Request) bool {
	si := a.content.SearchIndex
	probe := fmt.Sprintf(`%s%s<FindByUuid xmlns="urn:vim25"><_this type="%s">%s</_this><uuid>00000000-0000-0000-0000-000000000000</uuid><vmSearch>true</vmSearch></FindByUuid>%s`,
		xml.Header, envelopeStart, si.Type, si.Value, envelopeEnd)
	req := httptest.NewRequest(http.MethodPost, vim25.Path, strings.NewReader(probe))
	req.RemoteAddr = r.RemoteAddr
	req.Header.Set("User-Agent", r.UserAgent())
	req.Header["Cookie"] = r.Header["Cookie"]
	rec := httptest.NewRecorder()
	a.mux.ServeHTTP(rec, req)
	return rec.Code == http.StatusOK
}

func (a *app) context(this types.ManagedObjectReference) *simulator.Context {
	return &simulator.Context{
		Context: context.Background(),
		Map:     simulator.Map,
		Caller:  &this,
		Session: &simulator.Session{
			UserSession: types.UserSession{Key: "vcsim-gpuwiz", UserName: a.user},
			Registry:    simulator.NewRegistry(),
		},
	}
}

// taskFault answers a *_Task method with a task that fails with SystemError
// (-fail METHOD=taskfault); it leaves a call without a session, or on an
// unknown object, to vcsim.
func (a *app) taskFault(w http.ResponseWriter, r *http.Request, method string, this types.ManagedObjectReference) bool {
	obj := simulator.Map.Get(this)
	if obj == nil || !a.authenticated(r) {
		return false
	}
	name := this.Value
	if e, ok := obj.(mo.Entity); ok {
		name = e.Entity().Name
	}
	task := a.startTask(obj, method, name, this.Type+"."+method, func() (types.AnyType, types.BaseMethodFault) {
		return nil, &types.SystemError{Reason: "vcsim-gpuwiz injected fault"}
	})
	writeTaskResponse(w, method, task)
	return true
}

// startTask creates a task on obj and runs work in it, at once or, with
// -task-delay-ms, in the background after the progress steps.  work runs
// with obj locked.
func (a *app) startTask(obj mo.Reference, name, entityName, descriptionID string,
	work func() (types.AnyType, types.BaseMethodFault)) types.ManagedObjectReference {
	task := simulator.CreateTask(obj, strings.TrimSuffix(name, "_Task")+"Task", nil)
	task.Info.DescriptionId = descriptionID
	task.Info.EntityName = entityName
	ref := task.Self

	update := func(changes ...types.PropertyChange) {
		simulator.Map.WithLock(task, func() { simulator.Map.Update(task, changes) })
	}
	run := func() {
		update(types.PropertyChange{Name: "info.startTime", Val: time.Now()},
			types.PropertyChange{Name: "info.state", Val: types.TaskInfoStateRunning},
			types.PropertyChange{Name: "info.progress", Val: int32(0)})
		if a.taskDelay > 0 {
			time.Sleep(a.taskDelay / 2)
			update(types.PropertyChange{Name: "info.progress", Val: int32(50)})
			time.Sleep(a.taskDelay - a.taskDelay/2)
			update(types.PropertyChange{Name: "info.progress", Val: int32(100)})
		}
		var res types.AnyType
		var fault types.BaseMethodFault
		simulator.Map.WithLock(obj, func() { res, fault = work() })
		state := types.TaskInfoStateSuccess
		var lmf interface{}
		if fault != nil {
			state = types.TaskInfoStateError
			lmf = types.LocalizedMethodFault{Fault: fault, LocalizedMessage: faultMessage(fault)}
		}
		if ok, _ := path.Match(a.silentVM, entityName); ok && a.silentVM != "" {
			// the fields change, no collector hears of it
			simulator.Map.WithLock(task, func() {
				now := time.Now()
				task.Info.CompleteTime = &now
				task.Info.State = state
				task.Info.Result = res
				if fault != nil {
					task.Info.Error = &types.LocalizedMethodFault{Fault: fault, LocalizedMessage: faultMessage(fault)}
				}
			})
			return
		}
		update(types.PropertyChange{Name: "info.completeTime", Val: time.Now()},
			types.PropertyChange{Name: "info.state", Val: state},
			types.PropertyChange{Name: "info.result", Val: res},
			types.PropertyChange{Name: "info.error", Val: lmf})
	}
	if a.taskDelay > 0 {
		go run()
	} else {
		run()
	}
	return ref
}

// dropTask forgets a task vcsim created inside one of ours.
func (a *app) dropTask(ref types.ManagedObjectReference) {
	if tm, ok := simulator.Map.Get(*a.content.TaskManager).(*simulator.TaskManager); ok {
		tm.Lock()
		var recent []types.ManagedObjectReference
		for _, t := range tm.RecentTask {
			if t != ref {
				recent = append(recent, t)
			}
		}
		simulator.Map.Update(tm, []types.PropertyChange{{Name: "recentTask", Val: recent}})
		tm.Unlock()
	}
	simulator.Map.Remove(ref)
}

// reconfigVM is vcsim's ReconfigVM_Task plus what vSphere does and vcsim
// does not: devices are added and PCI devices changed only on a powered-off
// VM (InvalidPowerState in the task otherwise), extraConfig keys replace
// existing keys (an empty value removes the key) rather than being appended
// again, and a VirtualPCIPassthrough gets the key, PCI controller, unit number
// and label vSphere would give it.
func (a *app) reconfigVM(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	vm, ok := simulator.Map.Get(m.This).(*simulator.VirtualMachine)
	req, ok2 := m.Body.(*types.ReconfigVM_Task)
	if !ok || !ok2 || !a.authenticated(r) {
		return false
	}
	spec := req.Spec
	ctx := a.context(vm.Self)
	task := a.startTask(vm, m.Name, vm.Name, "VirtualMachine.reconfigure", func() (types.AnyType, types.BaseMethodFault) {
		if ok, _ := path.Match(a.failVM, vm.Name); ok && a.failVM != "" {
			return nil, &types.SystemError{Reason: "vcsim-gpuwiz injected fault for VM " + vm.Name + " (-fail-vm)"}
		}
		if vm.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOff && needsPowerOff(vm, &spec) {
			return nil, &types.InvalidPowerState{
				RequestedState: types.VirtualMachinePowerStatePoweredOff,
				ExistingState:  vm.Runtime.PowerState,
			}
		}
		preparePassthrough(vm, &spec)

		var extra, pass []types.BaseOptionValue
		for _, o := range spec.ExtraConfig {
			if k := o.GetOptionValue().Key; strings.HasPrefix(k, "SET.") || k == "ip0" {
				pass = append(pass, o) // vcsim's guest info shortcuts
			} else {
				extra = append(extra, o)
			}
		}
		spec.ExtraConfig = pass

		res := vm.ReconfigVMTask(ctx, &types.ReconfigVM_Task{This: vm.Self, Spec: spec})
		inner := res.(*methods.ReconfigVM_TaskBody).Res.Returnval
		var fault types.BaseMethodFault
		if t, ok := simulator.Map.Get(inner).(*simulator.Task); ok && t.Info.Error != nil {
			fault = t.Info.Error.Fault
		}
		a.dropTask(inner)
		if fault != nil {
			return nil, fault
		}
		if len(extra) != 0 {
			simulator.Map.Update(vm, []types.PropertyChange{
				{Name: "config.extraConfig", Val: mergeExtraConfig(vm.Config.ExtraConfig, extra)},
			})
		}
		return nil, nil
	})
	writeTaskResponse(w, m.Name, task)
	return true
}

// needsPowerOff: adding a device, or changing a PCI passthrough device or
// the firmware.
func needsPowerOff(vm *simulator.VirtualMachine, spec *types.VirtualMachineConfigSpec) bool {
	if spec.Firmware != "" && spec.Firmware != vm.Config.Firmware {
		return true
	}
	for _, c := range spec.DeviceChange {
		s := c.GetVirtualDeviceConfigSpec()
		if s.Operation == types.VirtualDeviceConfigSpecOperationAdd {
			return true
		}
		if _, ok := s.Device.(*types.VirtualPCIPassthrough); ok {
			return true
		}
	}
	return false
}

func preparePassthrough(vm *simulator.VirtualMachine, spec *types.VirtualMachineConfigSpec) {
	devices := object.VirtualDeviceList(vm.Config.Hardware.Device)
	keys := map[int32]bool{}
	units := map[int32]bool{}
	n := 0
	for _, d := range devices {
		keys[d.GetVirtualDevice().Key] = true
		if p, ok := d.(*types.VirtualPCIPassthrough); ok {
			n++
			if p.UnitNumber != nil {
				units[*p.UnitNumber] = true
			}
		}
	}
	for _, c := range spec.DeviceChange {
		s := c.GetVirtualDeviceConfigSpec()
		p, ok := s.Device.(*types.VirtualPCIPassthrough)
		if !ok || s.Operation != types.VirtualDeviceConfigSpecOperationAdd {
			continue
		}
		d := p.GetVirtualDevice()
		if d.Key <= 0 {
			k := int32(13000)
			for keys[k] {
				k++
			}
			d.Key = k
		}
		keys[d.Key] = true
		if d.ControllerKey == 0 {
			d.ControllerKey = pciController
		}
		if d.UnitNumber == nil {
			u := int32(18)
			for units[u] {
				u++
			}
			d.UnitNumber = &u
		}
		units[*d.UnitNumber] = true
		if d.DeviceInfo == nil {
			summary := "PCI passthrough device"
			switch b := d.Backing.(type) {
			case *types.VirtualPCIPassthroughDeviceBackingInfo:
				summary = b.Id
				if b.DeviceName != "" {
					summary = b.DeviceName
				}
			case *types.VirtualPCIPassthroughVmiopBackingInfo:
				summary = "NVIDIA GRID vGPU " + b.Vgpu
			}
			d.DeviceInfo = &types.Description{Label: fmt.Sprintf("PCI device %d", n), Summary: summary}
		}
		n++
	}
}

// mergeExtraConfig applies options the way vSphere does: a key replaces the
// same key, an empty value removes it.
func mergeExtraConfig(have, set []types.BaseOptionValue) []types.BaseOptionValue {
	out := append([]types.BaseOptionValue(nil), have...)
	for _, o := range set {
		opt := o.GetOptionValue()
		empty := opt.Value == nil
		if s, ok := opt.Value.(string); ok && s == "" {
			empty = true
		}
		i := 0
		for ; i < len(out); i++ {
			if out[i].GetOptionValue().Key == opt.Key {
				break
			}
		}
		switch {
		case i < len(out) && empty:
			out = append(out[:i], out[i+1:]...)
		case i < len(out):
			out[i] = &types.OptionValue{Key: opt.Key, Value: opt.Value}
		case !empty:
			out = append(out, &types.OptionValue{Key: opt.Key, Value: opt.Value})
		}
	}
	return out
}

func vmxNumber(v string) (int, bool) {
	if !strings.HasPrefix(v, "vmx-") {
		return 0, false
	}
	n, err := strconv.Atoi(v[4:])
	return n, err == nil && n > 0
}

// upgradeVM: vSphere's UpgradeVM_Task (vcsim's ignores the version and the
// power state): powered off only, to the given version or the newest,
// AlreadyUpgraded when not newer.
func (a *app) upgradeVM(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	vm, ok := simulator.Map.Get(m.This).(*simulator.VirtualMachine)
	req, ok2 := m.Body.(*types.UpgradeVM_Task)
	if !ok || !ok2 || !a.authenticated(r) {
		return false
	}
	task := a.startTask(vm, m.Name, vm.Name, "VirtualMachine.upgradeVirtualHardware", func() (types.AnyType, types.BaseMethodFault) {
		if vm.Runtime.PowerState != types.VirtualMachinePowerStatePoweredOff {
			return nil, &types.InvalidPowerState{
				RequestedState: types.VirtualMachinePowerStatePoweredOff,
				ExistingState:  vm.Runtime.PowerState,
			}
		}
		target := req.Version
		if target == "" {
			target = a.latestHW
		}
		want, ok := vmxNumber(target)
		latest, _ := vmxNumber(a.latestHW)
		if !ok || want > latest {
			return nil, &types.InvalidArgument{InvalidProperty: "version"}
		}
		if have, _ := vmxNumber(vm.Config.Version); have >= want {
			return nil, &types.AlreadyUpgraded{}
		}
		// (not summary.config.hwVersion: vcsim sends every field to every
		// client, and pre-7.0 clients such as pyVmomi 6.7 reject that one)
		simulator.Map.Update(vm, []types.PropertyChange{{Name: "config.version", Val: target}})
		return nil, nil
	})
	writeTaskResponse(w, m.Name, task)
	return true
}

// rebootHost: what gpuwiz needs of a reboot: passthruActive follows
// passthruEnabled.  Without force the host must be in maintenance mode.
func (a *app) rebootHost(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	host, ok := simulator.Map.Get(m.This).(*simulator.HostSystem)
	req, ok2 := m.Body.(*types.RebootHost_Task)
	if !ok || !ok2 || !a.authenticated(r) {
		return false
	}
	task := a.startTask(host, m.Name, host.Name, "HostSystem.reboot", func() (types.AnyType, types.BaseMethodFault) {
		if !req.Force && !host.Runtime.InMaintenanceMode {
			return nil, &types.InvalidState{}
		}
		for _, i := range host.Config.PciPassthruInfo {
			info := i.GetHostPciPassthruInfo()
			info.PassthruActive = info.PassthruEnabled
		}
		simulator.Map.Update(host, []types.PropertyChange{{Name: "config.pciPassthruInfo", Val: host.Config.PciPassthruInfo}})
		if pps, ok := simulator.Map.Get(*host.ConfigManager.PciPassthruSystem).(*pciPassthruSystem); ok {
			simulator.Map.Update(pps, []types.PropertyChange{{Name: "pciPassthruInfo", Val: host.Config.PciPassthruInfo}})
		}
		return nil, nil
	})
	writeTaskResponse(w, m.Name, task)
	return true
}

// ---------------------------------------------------------------------------
// RetrievePropertiesEx paging.  vcsim ignores options.maxObjects, never
// returns a token and has no ContinueRetrievePropertiesEx; vSphere pages
// large results.  Here vcsim's answer is cut into pages of at most
// maxObjects (and -page-size) objects.

func (a *app) retrievePropertiesEx(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	req, ok := m.Body.(*types.RetrievePropertiesEx)
	if !ok {
		return false
	}
	size := 0
	if req.Options.MaxObjects > 0 {
		size = int(req.Options.MaxObjects)
	}
	if a.pageSize > 0 && (size == 0 || a.pageSize < size) {
		size = a.pageSize
	}
	if size == 0 {
		return false
	}

	rec := httptest.NewRecorder()
	a.mux.ServeHTTP(rec, r)
	objects := objectsIn(rec.Body.Bytes())
	if rec.Code != http.StatusOK || len(objects) <= size {
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return true
	}

	var pages [][]byte
	for len(objects) > 0 {
		n := size
		if n > len(objects) {
			n = len(objects)
		}
		pages = append(pages, bytes.Join(objects[:n], nil))
		objects = objects[n:]
	}
	a.writePage(w, m.Name, "", pages)
	return true
}

// writePage answers with the first page and keeps the others under a token.
func (a *app) writePage(w http.ResponseWriter, method, token string, pages [][]byte) {
	a.pagesMu.Lock()
	if token == "" {
		a.nextToken++
		token = fmt.Sprintf("vcsim-gpuwiz-%d", a.nextToken)
	}
	delete(a.pages, token)
	if len(pages) > 1 {
		a.pages[token] = pages[1:]
	}
	a.pagesMu.Unlock()

	var b bytes.Buffer
	fmt.Fprintf(&b, `<%sResponse xmlns="urn:%s"><returnval>`, method, vim25.Namespace)
	if len(pages) > 1 {
		fmt.Fprintf(&b, "<token>%s</token>", token)
	}
	b.Write(pages[0])
	fmt.Fprintf(&b, "</returnval></%sResponse>", method)
	writeXML(w, http.StatusOK, b.Bytes())
}

func (a *app) continueRetrievePropertiesEx(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	req, ok := m.Body.(*types.ContinueRetrievePropertiesEx)
	if !ok || !a.authenticated(r) {
		return false
	}
	a.pagesMu.Lock()
	pages, ok := a.pages[req.Token]
	a.pagesMu.Unlock()
	if !ok {
		f := &types.InvalidArgument{InvalidProperty: "token"}
		writeFault(w, faultMessage(f), f)
		return true
	}
	a.writePage(w, m.Name, req.Token, pages)
	return true
}

func (a *app) cancelRetrievePropertiesEx(w http.ResponseWriter, r *http.Request, m *simulator.Method) bool {
	req, ok := m.Body.(*types.CancelRetrievePropertiesEx)
	if !ok || !a.authenticated(r) {
		return false
	}
	a.pagesMu.Lock()
	_, ok = a.pages[req.Token]
	delete(a.pages, req.Token)
	a.pagesMu.Unlock()
	if !ok {
		f := &types.InvalidArgument{InvalidProperty: "token"}
		writeFault(w, faultMessage(f), f)
		return true
	}
	writeXML(w, http.StatusOK, []byte(fmt.Sprintf(`<%sResponse xmlns="urn:%s"></%sResponse>`,
		m.Name, vim25.Namespace, m.Name)))
	return true
}

// objectsIn returns the <objects> elements of a RetrievePropertiesEx
// answer, as they are in it (Envelope > Body > Response > returnval > objects).
func objectsIn(answer []byte) [][]byte {
	var objects [][]byte
	d := xml.NewDecoder(bytes.NewReader(answer))
	depth := 0
	var start int64
	for {
		before := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			return objects
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 5 && t.Name.Local == "objects" {
				start = before
			}
		case xml.EndElement:
			if depth == 5 && t.Name.Local == "objects" {
				objects = append(objects, answer[start:d.InputOffset()])
			}
			depth--
		}
	}
}

// ---------------------------------------------------------------------------
// Helpers

// makeCert makes a self-signed ECDSA certificate for 127.0.0.1, ::1,
// localhost and the listening address.
func makeCert(ip net.IP) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	skid := sha1.Sum(pub)
	ips := []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	if ip != nil && !ip.IsUnspecified() && !ip.IsLoopback() {
		ips = append(ips, ip)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "127.0.0.1", Organization: []string{"vcsim-gpuwiz"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		SubjectKeyId:          skid[:],
		AuthorityKeyId:        skid[:],
		IPAddresses:           ips,
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// thumbprint is the SHA-256 fingerprint as openssl x509 -fingerprint prints it.
func thumbprint(der []byte) string {
	sum := sha256.Sum256(der)
	hex := make([]string, len(sum))
	for i, b := range sum {
		hex[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(hex, ":")
}

func compareVersions(x, y string) int {
	xs, ys := strings.Split(x, "."), strings.Split(y, ".")
	for i := 0; i < len(xs) || i < len(ys); i++ {
		var a, b int
		if i < len(xs) {
			a, _ = strconv.Atoi(xs[i])
		}
		if i < len(ys) {
			b, _ = strconv.Atoi(ys[i])
		}
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return 0
}

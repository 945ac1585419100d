#!/usr/bin/env node
// Compiles Aloud's whisper.cpp binding (core/node/engine/native) with the CPU's SIMD, once. What the CPU advertises
// but the OS does not let a process run (AMX in some virtual machines) is left out (native/cpu_probe.c decides,
// scripts/engineIsa.mjs turns that into flags); `aloud doctor --json` lists it under left_out.
// Run by `npm install` / `npm ci` (root postinstall) and by `npm run build:engine`.
// The whisper.cpp sources: the complete 1.9.1 tree that nodejs-whisper carries (its own install scripts never
// run: package.json allowScripts).
//
//   node scripts/build-engine.mjs [--force]
//
// Environment:
//   ALOUD_PORTABLE_BUILD=1     distributable build: x86-64-v3 (AVX2, FMA, F16C) or armv8-a (NEON) instead of
//                              this CPU's full instruction set (-march=native / -mcpu=native)
//   ALOUD_SKIP_ENGINE_BUILD=1  do not build (e.g. for renderer-only work); the engine then reports it is missing
//   ALOUD_ENGINE_OPENMP=1      use OpenMP threads in ggml (default: ggml's own thread pool)
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isaPlan, leftOutDefine } from './engineIsa.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = path.join(root, 'core/node/engine/native');
const TARGET = 'aloud_whisper';
/** The binding's own sources, for the up-to-date stamp (binding.gyp lists them and the whisper.cpp ones). */
const OWN_SOURCES = [
  'aloud_whisper.cc',
  'whisper_unity.cc',
  'cpu_guard.h',
  'cpu_probe.c',
  'units/ggml_c.c',
  'units/ggml_cpp.cpp',
  'units/ggml_cpu_c.c',
  'units/ggml_cpu_cpp.cpp',
];
/** The package that carries the whisper.cpp sources, and where in it the tree is. */
const WHISPER_PACKAGE = 'nodejs-whisper';
const WHISPER_TREE = 'cpp/whisper.cpp';
const addonPath = path.join(nativeDir, `build/Release/${TARGET}.node`);
const stampPath = path.join(nativeDir, 'build/aloud-build-stamp.json');
const require = createRequire(path.join(root, 'package.json'));

const say = (line) => process.stderr.write(`aloud engine build: ${line}\n`);

/** node-gyp run with its output kept for the log and each line handed to `onLine` as it comes. */
function run(args, options, log, onLine) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = '';
    const take = (chunk) => {
      const text = chunk.toString();
      log.push(text);
      const lines = (pending + text).split('\n');
      pending = lines.pop();
      for (const line of lines) onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (e) => {
      log.push(`${e.message}\n`);
      resolve({ status: null, signal: e.message });
    });
    child.on('close', (status, signal) => {
      if (pending) onLine(pending);
      resolve({ status, signal });
    });
  });
}

/** How many object files the makefiles node-gyp configured will compile (null where there are none: MSBuild). */
function objectCount(buildDir) {
  const makefiles = existsSync(buildDir) ? readdirSync(buildDir).filter((f) => f.endsWith('.target.mk')) : [];
  if (makefiles.length === 0) return null;
  let count = 0;
  for (const f of makefiles) {
    const text = readFileSync(path.join(buildDir, f), 'utf8');
    const objs = /^OBJS := \\\n((?:\t.*\\?\n)+)/m.exec(text);
    if (objs) count += objs[1].split('\n').filter((l) => /\.o\b/.test(l)).length;
  }
  return count || null;
}

function fail(lines) {
  for (const line of lines) say(line);
  process.exit(1);
}

function toolchainAdvice() {
  switch (process.platform) {
    case 'darwin':
      return ['Install the Xcode Command Line Tools: xcode-select --install (python3 and make come with them).'];
    case 'win32':
      return [
        'Install Visual Studio Build Tools with the "Desktop development with C++" workload, and Python 3:',
        '  winget install Microsoft.VisualStudio.2022.BuildTools Python.Python.3.12',
      ];
    default:
      return [
        'Install a C/C++ toolchain, make and python3:',
        '  Debian/Ubuntu: sudo apt-get install build-essential python3',
        '  Fedora/RHEL:   sudo dnf install gcc-c++ make python3',
        '  Arch:          sudo pacman -S base-devel python',
      ];
  }
}

/** Compiler flags for the SIMD the build must have, and the whisper.cpp system-info features that prove it. */
function simdTarget(portable) {
  const arch = process.arch;
  if (process.platform === 'win32') {
    // MSVC has no "native": AVX2 (which implies FMA and F16C code paths in ggml) is the baseline either way.
    return arch === 'x64'
      ? { cflags: '', msvcArch: '/arch:AVX2', expect: ['AVX2 = 1'], label: 'MSVC /arch:AVX2' }
      : { cflags: '', msvcArch: '', expect: arch === 'arm64' ? ['NEON = 1'] : [], label: 'MSVC default' };
  }
  if (arch === 'x64') {
    const cflags = portable ? '-march=x86-64-v3' : '-march=native';
    return { cflags, msvcArch: '', expect: ['AVX2 = 1', 'FMA = 1', 'F16C = 1'], label: cflags };
  }
  if (arch === 'arm64') {
    // -mcpu=native is what whisper.cpp's own Makefile uses on aarch64; older Apple clang rejects -march=native.
    const cflags = portable ? '-march=armv8-a' : '-mcpu=native';
    return { cflags, msvcArch: '', expect: ['NEON = 1'], label: cflags };
  }
  return { cflags: '', msvcArch: '', expect: [], label: `no SIMD flags for ${arch}` };
}

function findNodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.resolve(path.dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
    path.resolve(path.dirname(process.execPath), 'node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
  ];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not installed locally; npm's bundled copy is the usual one
  }
  return candidates.find((c) => c && existsSync(c));
}

/**
 * Deletes the objects of an earlier build that `node-gyp rebuild` would not: gyp places the object of a source
 * outside the binding's folder (the whisper.cpp tree in node_modules) at the source's relative path resolved from
 * build/Release/obj.target/<target>, which climbs out of build/. A stale one there (from another source list or other
 * compiler flags) is taken as up to date by make and linked; only .o and .d files are removed.
 */
function removeEscapedObjects(tree) {
  const buildDir = path.join(nativeDir, 'build');
  const objectRoot = path.resolve(buildDir, 'Release/obj.target', TARGET, path.relative(nativeDir, tree));
  if (objectRoot === tree || !path.relative(buildDir, objectRoot).startsWith('..')) return 0;
  let removed = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(o|d)$/.test(entry.name)) {
        rmSync(full, { force: true });
        removed += 1;
      }
    }
  };
  walk(objectRoot);
  return removed;
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Compiles and runs native/cpu_probe.c (cpu_guard.h): whether this machine lets a process run AMX, CPU and OS
 * both. Returns its report, or { error } when it could not be compiled or run.
 */
function probeCpu() {
  if (process.platform === 'win32' || process.arch !== 'x64')
    return { amx: { cpu: false, os_enabled: false, permitted: false, runs: false, reason: 'not checked on this platform' } };
  const compiler = process.env.CC || 'cc';
  const exe = path.join(nativeDir, 'generated/cpu_probe');
  const compiled = spawnSync(compiler, ['-O1', '-o', exe, path.join(nativeDir, 'cpu_probe.c')], { encoding: 'utf8' });
  if (compiled.status !== 0)
    return {
      error: `${compiler} could not compile the CPU probe: ${(compiled.stderr || compiled.error?.message || '').trim().split('\n')[0]}`,
    };
  const ran = spawnSync(exe, [], { encoding: 'utf8' });
  if (ran.status !== 0) return { error: `the CPU probe ${ran.signal ? `was killed by ${ran.signal}` : `exited with ${ran.status}`}` };
  try {
    return JSON.parse(ran.stdout);
  } catch {
    return { error: `the CPU probe printed ${JSON.stringify(ran.stdout.slice(0, 100))}` };
  }
}

/** The flags among `flags` that the C compiler accepts (an old one that knows no AMX cannot turn it on either). */
function acceptedFlags(flags) {
  const compiler = process.env.CC || 'cc';
  return flags.filter(
    (flag) =>
      spawnSync(compiler, [flag, '-x', 'c', '-E', '-o', process.platform === 'win32' ? 'NUL' : '/dev/null', '-'], {
        input: '',
        encoding: 'utf8',
      }).status === 0,
  );
}

function readStamp() {
  try {
    return readFileSync(stampPath, 'utf8');
  } catch {
    return '';
  }
}

/** Loads the addon in a fresh process and returns whisper.cpp's system info, or throws with the reason. */
function probeAddon() {
  const probe = spawnSync(process.execPath, ['-e', `process.stdout.write(require(${JSON.stringify(addonPath)}).systemInfo())`], {
    encoding: 'utf8',
  });
  if (probe.status !== 0) throw new Error((probe.stderr || `exit ${probe.status}`).trim().split('\n')[0]);
  return probe.stdout;
}

async function main() {
  if (process.env.ALOUD_SKIP_ENGINE_BUILD === '1') {
    say('skipped (ALOUD_SKIP_ENGINE_BUILD=1); transcription will not work until `npm run build:engine`.');
    return;
  }
  const force = process.argv.includes('--force');
  const portable = process.env.ALOUD_PORTABLE_BUILD === '1';
  const openmp = process.env.ALOUD_ENGINE_OPENMP === '1';
  const target = simdTarget(portable);
  mkdirSync(path.join(nativeDir, 'generated'), { recursive: true });
  const isa = isaPlan(probeCpu(), { arch: process.arch, native: !portable && process.platform !== 'win32' });
  const withoutFlags = acceptedFlags(isa.cflags);

  let whisperPackage;
  try {
    whisperPackage = path.dirname(require.resolve(`${WHISPER_PACKAGE}/package.json`));
  } catch {
    fail([`the ${WHISPER_PACKAGE} package (the whisper.cpp sources) is not installed: run \`npm install\` first.`]);
  }
  const whisperVersion = JSON.parse(readFileSync(path.join(whisperPackage, 'package.json'), 'utf8')).version;
  const tree = path.join(whisperPackage, WHISPER_TREE);
  const whisperSourceSha = sha256(path.join(tree, 'src/whisper.cpp')).slice(0, 12);
  const cmakeVersion = (file, pattern) => {
    try {
      return (
        pattern
          .exec(readFileSync(path.join(tree, file), 'utf8'))
          ?.slice(1)
          .join('.') ?? null
      );
    } catch {
      return null;
    }
  };
  // The versions whisper.cpp's and ggml's CMake files declare (the CMake build that would define them is not used).
  const whisperCppVersion = cmakeVersion('CMakeLists.txt', /project\("whisper\.cpp" VERSION (\d+)\.(\d+)\.(\d+)\)/);
  const ggmlVersion = cmakeVersion(
    'ggml/CMakeLists.txt',
    /GGML_VERSION_MAJOR (\d+)\)[\s\S]*?GGML_VERSION_MINOR (\d+)\)[\s\S]*?GGML_VERSION_PATCH (\d+)\)/,
  );
  const ownVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;

  const stamp = JSON.stringify({
    flags: target.label,
    left_out: isa.leftOut.map((l) => `${l.feature}: ${l.reason}`),
    without: withoutFlags,
    portable,
    openmp,
    platform: process.platform,
    arch: process.arch,
    napi: process.versions.napi,
    binding: OWN_SOURCES.map((f) => sha256(path.join(nativeDir, f))).join(':'),
    gyp: sha256(path.join(nativeDir, 'binding.gyp')),
    whisper: `${whisperVersion}:${whisperSourceSha}`,
  });
  if (!force && existsSync(addonPath) && readStamp() === stamp) {
    try {
      probeAddon();
      say(`up to date (${target.label}${portable ? ', portable' : ''}); --force rebuilds.`);
      return;
    } catch {
      say('existing build does not load; rebuilding.');
    }
  }

  const nodeGyp = findNodeGyp();
  if (!nodeGyp) fail(['node-gyp was not found (it ships with npm).', ...toolchainAdvice()]);

  const compileFlags = [
    [target.label, ...withoutFlags].join(' '),
    portable ? 'portable' : 'native',
    openmp ? 'openmp' : 'ggml-threads',
    'llamafile-sgemm',
  ].join(', ');
  writeFileSync(
    path.join(nativeDir, 'generated/aloud_build_info.h'),
    [
      '// Written by scripts/build-engine.mjs; not committed.',
      `#define ALOUD_WHISPER_BINDING_VERSION ${JSON.stringify(`aloud-whisper ${ownVersion}`)}`,
      `#define ALOUD_WHISPER_CPP_VERSION ${JSON.stringify(
        `${whisperCppVersion ?? 'unknown'} from nodejs-whisper ${whisperVersion} (ggml ${ggmlVersion ?? 'unknown'}, whisper.cpp source sha256 ${whisperSourceSha})`,
      )}`,
      `#define ALOUD_WHISPER_COMPILE_FLAGS ${JSON.stringify(compileFlags)}`,
      `#define ALOUD_ENGINE_LEFT_OUT ${leftOutDefine(isa.leftOut)}`,
      '',
    ].join('\n'),
  );

  const env = { ...process.env, ALOUD_WHISPER_CPP_VERSION: whisperCppVersion ?? 'unknown', ALOUD_GGML_VERSION: ggmlVersion ?? 'unknown' };
  // what this machine does not allow comes after -march=native, which would otherwise turn it back on
  const cflags = [target.cflags, ...withoutFlags].filter((f) => f !== '').join(' ');
  if (cflags) {
    env.CFLAGS = `${env.CFLAGS ?? ''} ${cflags}`.trim();
    env.CXXFLAGS = `${env.CXXFLAGS ?? ''} ${cflags}`.trim();
  }
  for (const l of isa.leftOut) say(`leaving out ${l.feature}: ${l.reason} (${l.effect})`);
  if (target.msvcArch) env.ALOUD_ENGINE_MSVC_ARCH = target.msvcArch;
  const stale = removeEscapedObjects(tree);
  if (stale > 0) say(`removed ${stale} object files of an earlier build outside build/.`);
  const logPath = path.join(nativeDir, 'generated/build.log');
  // configure, then build: the makefile configure writes says how many files there are to compile
  const configureArgs = [nodeGyp, 'configure'];
  // Installed Node ships its headers; using them avoids a download (and works offline).
  const localNode = path.resolve(path.dirname(process.execPath), '..');
  if (existsSync(path.join(localNode, 'include/node/common.gypi'))) configureArgs.push(`--nodedir=${localNode}`);

  say(
    `compiling the whisper.cpp speech engine (the native binding that transcribes on this CPU) with ${target.label}${portable ? ' (portable build)' : ''}: a minute on an idle machine, several when it is busy; progress below, full log in ${path.relative(root, logPath)}`,
  );
  const started = Date.now();
  const log = [];
  rmSync(path.join(nativeDir, 'build'), { recursive: true, force: true });
  const configured = await run(configureArgs, { cwd: nativeDir, env }, log, () => {});
  const total = configured.status === 0 ? objectCount(path.join(nativeDir, 'build')) : null;
  if (configured.status === 0) say(`configured${total ? `: ${total} source files to compile with ${availableParallelism()} jobs` : ''}`);
  let compiled = 0;
  let lastProgress = Date.now();
  // a line at least every 30 s, so a slow machine never looks stuck
  const heartbeat = setInterval(() => {
    if (Date.now() - lastProgress >= 30_000)
      say(`still compiling (file ${compiled}${total ? ` of ${total}` : ''}, ${Math.round((Date.now() - started) / 1000)} s)…`);
  }, 30_000);
  const build =
    configured.status !== 0
      ? configured
      : await run([nodeGyp, 'build', `--jobs=${availableParallelism()}`], { cwd: nativeDir, env }, log, (line) => {
          const step = /^\s*(CC|CXX|SOLINK_MODULE|LINK|COPY)\(target\)\s+(\S+)/.exec(line) ?? /^\s*([\w.-]+\.(?:c|cc|cpp))\s*$/.exec(line);
          if (!step) return;
          lastProgress = Date.now();
          if (step[1] === 'SOLINK_MODULE' || step[1] === 'LINK')
            say(`linking ${path.basename(step[2])} (${Math.round((Date.now() - started) / 1000)} s)`);
          else if (step[1] !== 'COPY')
            say(`compiling ${++compiled}${total ? `/${total}` : ''}: ${path.basename(step[2] ?? step[1]).replace(/\.o$/, '')}`);
        });
  clearInterval(heartbeat);
  writeFileSync(logPath, log.join(''));
  if (build.status !== 0) {
    const tail = log.join('').trim().split('\n').slice(-25);
    fail([
      ...tail,
      `compiling the whisper.cpp binding failed (node-gyp exit ${build.status ?? build.signal}; full log: ${logPath}).`,
      ...toolchainAdvice(),
      'Then run: npm run build:engine',
    ]);
  }

  let systemInfo;
  try {
    systemInfo = probeAddon();
  } catch (e) {
    fail([`the binding was built but does not load: ${e.message}`, ...toolchainAdvice()]);
  }
  const missing = target.expect.filter((feature) => !systemInfo.includes(feature));
  if (missing.length > 0) {
    fail([`the binding was built without ${missing.join(', ')} (whisper.cpp reports: ${systemInfo}).`]);
  }
  if (isa.leftOut.length > 0 && systemInfo.includes('AMX_INT8 = 1')) {
    fail([`the binding was built with AMX although this machine does not allow it (whisper.cpp reports: ${systemInfo}).`]);
  }
  writeFileSync(stampPath, stamp);
  say(`done in ${Math.round((Date.now() - started) / 1000)} s: ${systemInfo}`);
}

await main();

/**
 * The part of the `vscode` API the extension uses, recorded instead of shown, so its
 * VS Code side (activation, adapter descriptors, configurations, views) runs under mocha.
 * `install()` makes `require("vscode")` return it; `reset()` starts each test afresh.
 */
"use strict";
const Module = require("node:module");

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return { dispose: () => this.listeners.splice(this.listeners.indexOf(listener), 1) };
    };
  }
  fire(value) {
    for (const listener of [...this.listeners]) listener(value);
  }
}

class TreeItem {
  constructor(label, collapsibleState) {
    this.label = label;
    this.collapsibleState = collapsibleState;
  }
}

class ThemeIcon {
  constructor(id) {
    this.id = id;
  }
}

class DebugAdapterExecutable {
  constructor(command, args, options) {
    Object.assign(this, { command, args, options });
  }
}

const Uri = { file: (fsPath) => ({ fsPath, scheme: "file" }) };

const vscode = {
  Uri,
  EventEmitter,
  TreeItem,
  ThemeIcon,
  DebugAdapterExecutable,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  window: {},
  workspace: {},
  debug: {},
  commands: {},
};

/** What the extension registered and said, for the tests to look at. */
const recorded = {};

function reset({ settings = {}, folders = [], editorLanguage, saveTo } = {}) {
  Object.assign(recorded, { factories: {}, providers: {}, trackers: {}, trees: {}, commands: {}, errors: [], infos: [], executed: [], saveDialogs: [] });
  const sessionChanged = new EventEmitter();
  const sessionEnded = new EventEmitter();
  Object.assign(vscode.window, {
    activeTextEditor: editorLanguage ? { document: { languageId: editorLanguage } } : undefined,
    showErrorMessage: (message) => {
      recorded.errors.push(message);
      return Promise.resolve(undefined);
    },
    registerTreeDataProvider: (id, provider) => ((recorded.trees[id] = provider), { dispose() {} }),
    showInformationMessage: (message) => {
      recorded.infos.push(message);
      return Promise.resolve(undefined);
    },
    showSaveDialog: (options) => {
      recorded.saveDialogs.push(options);
      return Promise.resolve(saveTo ? Uri.file(saveTo) : undefined);
    },
  });
  Object.assign(vscode.workspace, {
    workspaceFolders: folders.map((fsPath) => ({ uri: { fsPath } })),
    getConfiguration: (section) => ({ get: (key, fallback) => settings[`${section}.${key}`] ?? fallback }),
  });
  Object.assign(vscode.debug, {
    activeDebugSession: undefined,
    registerDebugAdapterDescriptorFactory: (type, factory) => ((recorded.factories[type] = factory), { dispose() {} }),
    registerDebugConfigurationProvider: (type, provider) => ((recorded.providers[type] = provider), { dispose() {} }),
    registerDebugAdapterTrackerFactory: (type, factory) => ((recorded.trackers[type] = factory), { dispose() {} }),
    onDidChangeActiveDebugSession: sessionChanged.event,
    onDidTerminateDebugSession: sessionEnded.event,
  });
  Object.assign(vscode.commands, {
    registerCommand: (id, run) => ((recorded.commands[id] = run), { dispose() {} }),
    executeCommand: (...args) => (recorded.executed.push(args), Promise.resolve()),
  });
  return recorded;
}

function install() {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === "vscode" ? __filename : resolve.call(this, request, ...rest);
  };
}

module.exports = vscode;
module.exports.install = install;
module.exports.reset = reset;

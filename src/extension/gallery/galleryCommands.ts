// The gallery's command ids, apart from its code: activation registers them (lazyFeatures.ts)
// without loading the gallery, and the gallery's module uses the same ids.

export const RegistryGalleryCommands = { browse: 'mcpHost.registry.browse', setToken: 'mcpHost.registry.setToken' } as const;

import { z } from "zod";

export const ManifestEntrySchema = z
  .strictObject({
    path: z.string().startsWith("/").meta({ description: "URL path the file is served at." }),
    file: z.string().meta({ description: "File path relative to the output folder." }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    size: z.int().min(0),
    content_type: z.string(),
    etag: z
      .string()
      .regex(/^"[^"]+"$/)
      .meta({ description: "Strong entity tag derived from sha256." }),
    last_modified: z.string().meta({ description: "HTTP date derived from the data, never from the build clock." }),
  })
  .meta({ id: "ManifestEntry" });
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

export const BuildManifestSchema = z
  .strictObject({
    version: z.literal(1),
    site_url: z.url(),
    data_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: "Hash of every input data file." }),
    search_index: z
      .strictObject({
        file: z.string(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        size: z.int().min(0),
      })
      .optional()
      .meta({ description: "The sidecar's search index (not published): file relative to the output folder." }),
    entries: z.array(ManifestEntrySchema),
  })
  .meta({ id: "BuildManifest", description: "Written after every successful build; read by the sidecar and the hub." });
export type BuildManifest = z.infer<typeof BuildManifestSchema>;

import { z } from "zod";
import { NonEmptyTextSchema, SlugSchema } from "./common.ts";

export const ServiceAreaSchema = z
  .strictObject({
    id: SlugSchema,
    name: NonEmptyTextSchema,
  })
  .meta({ id: "ServiceArea", description: "A town or district the business serves." });
export type ServiceArea = z.infer<typeof ServiceAreaSchema>;

export const ServiceSchema = z
  .strictObject({
    id: SlugSchema,
    name: NonEmptyTextSchema,
    description: NonEmptyTextSchema,
  })
  .meta({ id: "Service", description: "A kind of job the business offers." });
export type Service = z.infer<typeof ServiceSchema>;

export const TechnicianSchema = z
  .strictObject({
    id: SlugSchema,
    name: NonEmptyTextSchema.meta({
      description: 'Name as displayed in reviews: first name and last initial, e.g. "Luis O."',
    }),
    role: NonEmptyTextSchema,
    since: z
      .int({ error: "must be the year the technician joined, e.g. 2016" })
      .min(1900, { error: "must be the year the technician joined, e.g. 2016" })
      .max(2100, { error: "must be the year the technician joined, e.g. 2016" }),
  })
  .meta({ id: "Technician", description: "A technician of the business." });
export type Technician = z.infer<typeof TechnicianSchema>;

export const PostalAddressSchema = z
  .strictObject({
    street_address: NonEmptyTextSchema,
    locality: NonEmptyTextSchema,
    region: NonEmptyTextSchema,
    postal_code: NonEmptyTextSchema,
    country: z.string().regex(/^[A-Z]{2}$/, { error: "must be an ISO 3166-1 alpha-2 code, e.g. US" }),
  })
  .meta({ id: "PostalAddress" });

export const GeoSchema = z
  .strictObject({
    latitude: z.number().min(-90, { error: "must be from -90 to 90" }).max(90, { error: "must be from -90 to 90" }),
    longitude: z
      .number()
      .min(-180, { error: "must be from -180 to 180" })
      .max(180, { error: "must be from -180 to 180" }),
  })
  .meta({ id: "Geo" });

const DaySchema = z.enum(["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"], {
  error: "must be a day code: Mo, Tu, We, Th, Fr, Sa or Su",
});
const ClockTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a 24-hour time HH:MM, e.g. 07:30" });

export const OpeningHoursSchema = z
  .strictObject({
    days: z.array(DaySchema).min(1, { error: "must list at least one day" }),
    opens: ClockTimeSchema,
    closes: ClockTimeSchema,
  })
  .meta({ id: "OpeningHours", description: "Regular opening hours for a set of days, local time." });

export const BusinessSchema = z
  .strictObject({
    name: NonEmptyTextSchema,
    legal_name: NonEmptyTextSchema.optional(),
    url: z.url({ error: "must be an absolute URL, e.g. https://www.example.com" }),
    telephone: z.string().regex(/^\+[0-9][0-9 -]{6,20}$/, {
      error: "must be an international number starting with +, e.g. +1-916-555-0142",
    }),
    email: z.email({ error: "must be an e-mail address" }),
    description: NonEmptyTextSchema,
    address: PostalAddressSchema,
    geo: GeoSchema,
    time_zone: z
      .string()
      .refine((tz) => Intl.supportedValuesOf("timeZone").includes(tz), {
        error: "must be an IANA time zone, e.g. America/Los_Angeles",
      })
      .meta({ description: "IANA time zone in which review dates are local dates." }),
    opening_hours: z.array(OpeningHoursSchema),
    emergency_service: NonEmptyTextSchema.optional(),
    founding_year: z.int().min(1800).max(2100),
    licence_number: NonEmptyTextSchema,
    price_range: z
      .string()
      .regex(/^\${1,4}$/, { error: "must be $ to $$$$" })
      .optional(),
    service_areas: z.array(ServiceAreaSchema).min(1, { error: "must list at least one area" }),
    services: z.array(ServiceSchema).min(1, { error: "must list at least one service" }),
    technicians: z.array(TechnicianSchema),
    insights: z
      .strictObject({
        technician_ratings: z.boolean().default(false).meta({
          description:
            "Publish each technician's mean star rating and distribution. Off by default: a review's stars are the customer's verdict on the job, not on a person.",
        }),
      })
      .optional(),
  })
  .meta({ id: "Business", description: "The business whose reviews are published, with its catalogues." });
export type Business = z.infer<typeof BusinessSchema>;

/** The tab's services over the app database, made once by main.tsx (which never touches the database itself). */
import { db } from "../../db/instance.ts";
import { type AppServices, createAppServices } from "./app-services.ts";

export const createTabServices = (): AppServices => createAppServices(db);

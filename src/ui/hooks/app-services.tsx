/** The tab's services (made once by src/main.tsx) handed down to the views: `useAppServices()`. */
import { createContext, type ReactNode, useContext } from "react";
import type { AppServices } from "../../services/app/app-services.ts";

const AppServicesContext = createContext<AppServices | undefined>(undefined);

export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppServicesContext.Provider value={services}>{children}</AppServicesContext.Provider>;
}

/** The services the app was mounted with (an error outside AppServicesProvider). */
export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error("useAppServices: no AppServicesProvider above this view");
  return services;
}

// The profile attached to an authenticated request.
export interface UserProfile {
  id: string;
}

class UsersController < ApplicationController
  def index
    @users = User.where("name = '#{params[:name]}'")
  end

  def avatar
    system("convert #{params[:file]} public/avatar.png")
    head :ok
  end
end
